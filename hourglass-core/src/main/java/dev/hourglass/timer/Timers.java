package dev.hourglass.timer;

/**
 * Makes {@link Timer}s.
 *
 * <pre>{@code
 * Timer timer = Timers.builder().tick(Duration.ofMillis(1)).startTimerThread();
 * Timeout idle = timer.schedule(() -> connection.close(), Duration.ofSeconds(10));
 * idle.reschedule(Duration.ofSeconds(10)); // on every ping: no message, no garbage
 * }</pre>
 *
 * <p>Complexity: O(1). Ordering: not applicable.
 *
 * <p>Thread-safety: safe from any thread.
 */
public final class Timers {

    private Timers() {}

    /**
     * Starts configuring a timer.
     *
     * @return a builder with the defaults described in {@link TimerBuilder}
     */
    public static TimerBuilder builder() {
        return new TimerBuilder();
    }
}
