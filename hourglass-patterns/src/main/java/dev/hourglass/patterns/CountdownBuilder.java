package dev.hourglass.patterns;

import dev.hourglass.time.NanoClock;
import dev.hourglass.timer.Timer;
import java.time.Duration;
import java.util.Objects;

/**
 * Configures a {@link Countdown}, then starts it.
 *
 * <pre>{@code
 * Countdown round = Countdown.builder(timer, clock)
 *         .duration(Duration.ofSeconds(30))
 *         .interval(Duration.ofSeconds(1))
 *         .onTick((tick, due) -> broadcast(round.remaining().toSeconds() + " s left"))
 *         .onComplete(() -> broadcast("round over"))
 *         .start();
 * }</pre>
 *
 * <p>Complexity: O(1) per setting. Ordering: not applicable.
 *
 * <p>Thread-safety: none; configure on one thread, then start.
 */
public final class CountdownBuilder {

    /** Due times are compared by subtraction, so lengths stay well inside the signed range. */
    static final long MAX_NANOS = Long.MAX_VALUE / 2;

    private final Timer timer;
    private final NanoClock clock;
    private long durationNanos = -1;
    private long intervalNanos = -1;
    private CountdownTickListener onTick = (tick, due) -> {};
    private Runnable onComplete = () -> {};

    CountdownBuilder(Timer timer, NanoClock clock) {
        this.timer = Objects.requireNonNull(timer, "timer");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Sets how long the countdown runs, not counting pauses; required.
     *
     * @param duration not negative, at most {@code Long.MAX_VALUE / 2} nanoseconds (about 146
     *     years); zero completes at once
     * @return this builder
     * @throws NullPointerException if {@code duration} is null
     * @throws IllegalArgumentException if {@code duration} is negative or too long
     */
    public CountdownBuilder duration(Duration duration) {
        Objects.requireNonNull(duration, "duration");
        if (duration.isNegative() || duration.compareTo(Duration.ofNanos(MAX_NANOS)) > 0) {
            throw new IllegalArgumentException(
                    "duration must not be negative nor exceed " + MAX_NANOS + " ns: " + duration);
        }
        this.durationNanos = duration.toNanos();
        return this;
    }

    /**
     * Sets the time between ticks; required.
     *
     * @param interval positive, at most {@code Long.MAX_VALUE / 2} nanoseconds
     * @return this builder
     * @throws NullPointerException if {@code interval} is null
     * @throws IllegalArgumentException if {@code interval} is not positive or too long
     */
    public CountdownBuilder interval(Duration interval) {
        Objects.requireNonNull(interval, "interval");
        if (interval.isNegative() || interval.isZero() || interval.compareTo(Duration.ofNanos(MAX_NANOS)) > 0) {
            throw new IllegalArgumentException(
                    "interval must be positive and at most " + MAX_NANOS + " ns: " + interval);
        }
        this.intervalNanos = interval.toNanos();
        return this;
    }

    /**
     * Sets what runs on each tick; by default nothing.
     *
     * @param onTick called for ticks 1, 2, ... at start + k × interval, strictly before the end
     * @return this builder
     * @throws NullPointerException if {@code onTick} is null
     */
    public CountdownBuilder onTick(CountdownTickListener onTick) {
        this.onTick = Objects.requireNonNull(onTick, "onTick");
        return this;
    }

    /**
     * Sets what runs when the countdown completes; by default nothing.
     *
     * @param onComplete called once, after the last tick, at start + duration
     * @return this builder
     * @throws NullPointerException if {@code onComplete} is null
     */
    public CountdownBuilder onComplete(Runnable onComplete) {
        this.onComplete = Objects.requireNonNull(onComplete, "onComplete");
        return this;
    }

    /**
     * Starts the countdown now.
     *
     * @return the running countdown
     * @throws IllegalStateException if the duration or interval was not set, or the timer is closed
     */
    public Countdown start() {
        if (durationNanos < 0) {
            throw new IllegalStateException("duration not set");
        }
        if (intervalNanos < 0) {
            throw new IllegalStateException("interval not set");
        }
        Countdown countdown = new Countdown(timer, clock, durationNanos, intervalNanos, onTick, onComplete);
        countdown.begin();
        return countdown;
    }
}
