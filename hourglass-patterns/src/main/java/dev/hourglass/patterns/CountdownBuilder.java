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
     * @param duration zero or less completes at once; longer than {@link
     *     dev.hourglass.timer.Timer#MAX_DELAY_NANOS} (about 146 years) saturates to it
     * @return this builder
     * @throws NullPointerException if {@code duration} is null
     */
    public CountdownBuilder duration(Duration duration) {
        Objects.requireNonNull(duration, "duration");
        // As for the timer's delays: zero or less completes at once, longer saturates.
        this.durationNanos = duration.isNegative() ? 0 : CooldownsBuilder.saturated(duration);
        return this;
    }

    /**
     * Sets the time between ticks; required.
     *
     * @param interval positive; longer than {@link dev.hourglass.timer.Timer#MAX_DELAY_NANOS}
     *     saturates to it
     * @return this builder
     * @throws NullPointerException if {@code interval} is null
     * @throws IllegalArgumentException if {@code interval} is not positive
     */
    public CountdownBuilder interval(Duration interval) {
        Objects.requireNonNull(interval, "interval");
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("interval must be positive: " + interval);
        }
        this.intervalNanos = CooldownsBuilder.saturated(interval);
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
