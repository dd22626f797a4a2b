package dev.hourglass.time;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A clock that moves only when told to, for tests and simulations. It never moves backwards:
 * {@link #advance} takes a non-negative amount and wraps past {@code Long.MAX_VALUE} as {@link
 * System#nanoTime()} values do.
 *
 * <p>Complexity: O(1). Ordering: readings never decrease, in subtraction order.
 *
 * <p>Thread-safety: safe for use from any thread; a reading sees the latest completed advance.
 */
public final class ManualNanoClock implements NanoClock {

    private volatile long now;

    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();

    /**
     * Creates a clock that reads {@code start} until advanced.
     *
     * @param start the first reading, any value (near {@code Long.MIN_VALUE}, 0 or {@code
     *     Long.MAX_VALUE} are all fine)
     */
    public ManualNanoClock(long start) {
        this.now = start;
    }

    @Override
    public long nanoTime() {
        return now;
    }

    /**
     * Moves the clock forward, wrapping past {@code Long.MAX_VALUE} like {@code System.nanoTime()},
     * then runs the {@linkplain #addJumpListener jump listeners} on this thread.
     *
     * @param nanos how far to move, at least 0
     * @return the new reading
     * @throws IllegalArgumentException if {@code nanos} is negative
     */
    public long advance(long nanos) {
        if (nanos < 0) {
            throw new IllegalArgumentException("nanos must not be negative: " + nanos);
        }
        long next;
        synchronized (this) {
            next = now + nanos;
            now = next;
        }
        // Outside the lock: a listener may read the clock or take locks of its own.
        for (Runnable listener : listeners) {
            listener.run();
        }
        return next;
    }

    @Override
    public void addJumpListener(Runnable listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    @Override
    public void removeJumpListener(Runnable listener) {
        listeners.remove(listener);
    }

    /**
     * Moves the clock forward by a duration.
     *
     * @param duration how far to move, not negative and at most {@code Long.MAX_VALUE} nanoseconds
     * @return the new reading
     * @throws NullPointerException if {@code duration} is null
     * @throws IllegalArgumentException if {@code duration} is negative
     * @throws ArithmeticException if {@code duration} exceeds {@code Long.MAX_VALUE} nanoseconds
     */
    public long advance(Duration duration) {
        Objects.requireNonNull(duration, "duration");
        if (duration.isNegative()) {
            throw new IllegalArgumentException("duration must not be negative: " + duration);
        }
        return advance(duration.toNanos());
    }

    /**
     * Returns false: this clock moves only when {@linkplain #advance advanced}.
     *
     * @return false
     */
    @Override
    public boolean flows() {
        return false;
    }

    @Override
    public String toString() {
        return "ManualNanoClock[" + now + "]";
    }
}
