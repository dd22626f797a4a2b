package dev.hourglass.timer;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Turns delays and periods into nanoseconds the same way everywhere: zero or less is now, longer
 * than {@link Timer#MAX_DELAY_NANOS} saturates to it.
 *
 * <p>Complexity: O(1). Ordering: not applicable. Thread-safety: stateless.
 */
final class Delays {

    private static final Duration MAX = Duration.ofNanos(Timer.MAX_DELAY_NANOS);

    private Delays() {}

    static long nanos(Duration duration, String name) {
        Objects.requireNonNull(duration, name);
        if (duration.isNegative() || duration.isZero()) {
            return 0;
        }
        return duration.compareTo(MAX) >= 0 ? Timer.MAX_DELAY_NANOS : duration.toNanos();
    }

    static long nanos(long amount, TimeUnit unit, String name) {
        Objects.requireNonNull(unit, "unit");
        // TimeUnit.toNanos saturates at Long.MAX_VALUE, so the minimum cannot overflow.
        return amount <= 0 ? 0 : Math.min(unit.toNanos(amount), Timer.MAX_DELAY_NANOS);
    }

    static long period(Duration period, String name) {
        Objects.requireNonNull(period, name);
        if (period.isNegative() || period.isZero()) {
            throw new IllegalArgumentException(name + " must be positive: " + period);
        }
        return nanos(period, name);
    }

    static long period(long amount, TimeUnit unit, String name) {
        Objects.requireNonNull(unit, "unit");
        if (amount <= 0) {
            throw new IllegalArgumentException(name + " must be positive: " + amount + " " + unit);
        }
        return nanos(amount, unit, name);
    }
}
