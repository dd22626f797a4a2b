package dev.hourglass.executor;

import dev.hourglass.timer.Timer;
import java.util.concurrent.ScheduledExecutorService;

/**
 * A {@link ScheduledExecutorService} whose delays are kept by an Hourglass {@link Timer}, keeping
 * the contract of {@link java.util.concurrent.ScheduledThreadPoolExecutor}: delays of zero or less
 * run at once; {@code cancel(true)} interrupts a running task; a periodic task that throws is not
 * run again and its future completes with the exception; {@link #shutdown()} runs the delayed
 * one-shot tasks and cancels the periodic ones by default (both are builder settings); {@link
 * #shutdownNow()} interrupts running tasks and returns the tasks that were waiting, their futures
 * left as they were; tasks submitted after shutdown are refused with {@link
 * java.util.concurrent.RejectedExecutionException}.
 *
 * <p>A cancelled task leaves the timer at once (as {@code setRemoveOnCancelPolicy(true)} does for
 * the JDK's executor). A delay or period longer than {@link Timer#MAX_DELAY_NANOS} saturates to it.
 * Tasks of the executor run on the thread that runs the timer's tasks unless the builder chose an
 * executor for them. An exception of a task goes to its future, never to the timer's exception
 * handler; that of a task given to {@link #execute} is dropped, as the JDK's executor drops it.
 *
 * <p>Complexity: schedule and cancel cost the timer's schedule and cancel plus O(1) bookkeeping
 * that allocates nothing beyond the task itself (a striped list of the tasks not yet finished,
 * linked through the tasks); shutdown and shutdownNow O(tasks).
 *
 * <p>Ordering: tasks start in the timer's order (deadline order on exact structures, tick order on
 * wheels); tasks handed to a pool may of course finish in any order.
 *
 * <p>Thread-safety: every method may be called from any thread, including from a task.
 */
public interface TimerExecutorService extends ScheduledExecutorService, AutoCloseable {

    /**
     * Returns the timer that keeps this executor's delays, for example to read its {@link
     * Timer#stats()} or to bind metrics to it.
     *
     * @return the timer; closed by the executor when it terminates only if the executor started it
     */
    Timer timer();

    /**
     * Returns how many tasks this executor refused with {@link
     * java.util.concurrent.RejectedExecutionException}: submitted after shutdown, or refused by
     * the timer (closed, or at its pending limit). Counted in a striped counter, for monitoring.
     *
     * @return the count since the executor was built
     */
    long rejectedCount();

    /**
     * Returns how many of this executor's futures completed with an exception: the task threw
     * (a periodic task's first throw ends it), or its run was refused by the task executor.
     * Cancellations are not counted. A failure is counted before its future completes, so a thread
     * that sees the exception sees the count; one that a racing cancel beats is counted for that
     * moment only.
     *
     * @return the count since the executor was built
     */
    long failedCount();

    /**
     * Shuts down and waits for termination, with the semantics of Java 19's {@code
     * ExecutorService.close()} on any Java version: does nothing if already terminated; else calls
     * {@link #shutdown()} and waits, and if the waiting thread is interrupted, calls {@link
     * #shutdownNow()} once, goes on waiting until the running tasks have ended, and sets the
     * thread's interrupt status again before returning. Called from one of this executor's own tasks
     * it would wait for that task to end, and so, like the JDK's, it never returns.
     */
    @Override
    void close();
}
