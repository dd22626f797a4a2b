package dev.hourglass.timer;

/**
 * A task that is handed its own {@link Timeout} when it runs (to reschedule or cancel itself, or to
 * reach its {@link Timeout#timer()}), and may be told when it is cancelled.
 *
 * <p>Complexity: not applicable. Ordering: see {@link Timer}.
 *
 * <p>Thread-safety: it runs on the driver's thread or the configured executor.
 */
@FunctionalInterface
public interface TimerTask {

    /**
     * Runs the task.
     *
     * @param timeout the handle of this run
     * @throws Exception anything, which goes to the timer's exception handler
     */
    void run(Timeout timeout) throws Exception;

    /**
     * Called once on the driver's thread after a {@link Timeout#cancel()} of this task's timeout
     * returned true, when the driver takes the cancellation in (not for timeouts cancelled by
     * closing the timer, nor for a cancel whose hand-off comes after the stopping driver's last
     * look at its messages: a thread handing over after that look counts it, and nobody tells the
     * task). An exception goes to the timer's exception handler. Does nothing by default.
     *
     * @param timeout the cancelled timeout
     */
    default void cancelled(Timeout timeout) {}
}
