package dev.hourglass.executor;

/**
 * Makes {@link TimerExecutorService}s: {@link java.util.concurrent.ScheduledExecutorService}s
 * backed by an Hourglass {@link dev.hourglass.timer.Timer}.
 *
 * <pre>{@code
 * TimerExecutorService scheduler = TimerExecutors.builder().startTimerThread();
 * ScheduledFuture<?> timeout = scheduler.schedule(() -> request.fail(), 2, TimeUnit.SECONDS);
 * timeout.cancel(false); // the answer came in time
 * scheduler.close();     // shutdown, then wait for what was already scheduled
 * }</pre>
 *
 * <p>Complexity: O(1). Ordering: not applicable.
 *
 * <p>Thread-safety: safe from any thread.
 */
public final class TimerExecutors {

    private TimerExecutors() {}

    /**
     * Starts configuring an executor.
     *
     * @return a builder with the defaults described in {@link TimerExecutorBuilder}
     */
    public static TimerExecutorBuilder builder() {
        return new TimerExecutorBuilder();
    }
}
