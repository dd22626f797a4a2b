package dev.hourglass.timer;

import dev.hourglass.time.NanoClock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Thread-safe timers: run a task after a delay, at a fixed rate or with a fixed delay, from any
 * thread. Made by {@link Timers}: a dedicated timer thread, an I/O event loop ({@code
 * dev.hourglass.loop.EventLoop}) or a loop of your own ({@link TimerDriver}) drives a {@link
 * dev.hourglass.queue.TimerQueue} of any structure.
 *
 * <p>Semantics every driver keeps: a task never runs before its deadline; {@link Timeout#cancel()}
 * returning true means the task will never run (again); an exception from a task goes to the
 * exception handler and neither stops the driver nor a periodic schedule; a periodic task never
 * runs concurrently with itself.
 *
 * <p>Delays: a delay of zero or less means now: the task runs at the driver's next turn, even
 * between a wheel's ticks. A delay or period longer than {@link #MAX_DELAY_NANOS} (about 146 years)
 * saturates to it; a period that is not positive is refused. Every structure takes every delay.
 *
 * <p>Closing: {@link #stop()} stops the driver and returns the timeouts that never ran; {@link
 * #close()} does the same and drops the list, so a timer works in try-with-resources.
 *
 * <p>Complexity: schedule, cancel and reschedule cost at most two atomic read-modify-writes on the
 * caller's thread (a later reschedule one) plus the queue structure's own cost on the driver's.
 *
 * <p>Ordering: tasks run in the order of their structure (deadline order for exact structures,
 * tick order for wheels), except that timeouts already due when the driver takes them in (a zero
 * delay, or overdue after a jump of a manual clock) run after the due ones it holds, in the order
 * they were handed over; tasks handed to an executor may of course finish in any order.
 *
 * <p>Thread-safety: every method may be called from any thread, including from a task.
 */
public interface Timer extends AutoCloseable {

    /**
     * The longest delay or period, in nanoseconds (about 146 years): longer ones saturate to it,
     * here and in the patterns. Half the range of a nanosecond reading, so that a deadline computed
     * from one thread's reading still lies ahead when compared by subtraction with another's.
     */
    long MAX_DELAY_NANOS = Long.MAX_VALUE / 2;

    /**
     * Runs {@code task} once after {@code delay}.
     *
     * @param task what to run, not null
     * @param delay how long to wait; zero or less means now
     * @return the handle that cancels or reschedules it
     * @throws NullPointerException if {@code task} or {@code delay} is null
     * @throws IllegalStateException if the timer is closed
     * @throws RejectedExecutionException if the pending limit is reached
     */
    default Timeout schedule(Runnable task, Duration delay) {
        return schedule(task, Delays.nanos(delay, "delay"), TimeUnit.NANOSECONDS);
    }

    /**
     * Runs {@code task} once after {@code delay} in {@code unit}. A task that is also a {@link
     * TimerTask} runs as one (see {@link #schedule(TimerTask, long, TimeUnit)}), here and in the
     * other methods that take a {@code Runnable}.
     *
     * @param task what to run, not null
     * @param delay how long to wait; zero or less means now
     * @param unit the unit of {@code delay}, not null
     * @return the handle that cancels or reschedules it
     * @throws NullPointerException if {@code task} or {@code unit} is null
     * @throws IllegalStateException if the timer is closed
     * @throws RejectedExecutionException if the pending limit is reached
     */
    Timeout schedule(Runnable task, long delay, TimeUnit unit);

    /**
     * Runs {@code task} once after {@code delay}, handing it its own {@link Timeout}; the task also
     * hears of a successful {@link Timeout#cancel()} through {@link TimerTask#cancelled}.
     *
     * @param task what to run, not null
     * @param delay how long to wait; zero or less means now
     * @return the handle that cancels or reschedules it
     * @throws NullPointerException if {@code task} or {@code delay} is null
     * @throws IllegalStateException if the timer is closed
     * @throws RejectedExecutionException if the pending limit is reached
     */
    default Timeout schedule(TimerTask task, Duration delay) {
        return schedule(task, Delays.nanos(delay, "delay"), TimeUnit.NANOSECONDS);
    }

    /**
     * Runs {@code task} once after {@code delay} in {@code unit}, handing it its own {@link
     * Timeout}.
     *
     * @param task what to run, not null
     * @param delay how long to wait; zero or less means now
     * @param unit the unit of {@code delay}, not null
     * @return the handle that cancels or reschedules it
     * @throws NullPointerException if {@code task} or {@code unit} is null
     * @throws IllegalStateException if the timer is closed
     * @throws RejectedExecutionException if the pending limit is reached
     */
    Timeout schedule(TimerTask task, long delay, TimeUnit unit);

    /**
     * Runs {@code task} after {@code initialDelay}, then every {@code period} measured from the first
     * deadline, so a late run does not shift the ones after it. A run that would overlap the
     * previous one starts when that one ends.
     *
     * @param task what to run, not null
     * @param initialDelay the wait before the first run; zero or less means now
     * @param period the time between runs, positive
     * @return the handle that cancels or reschedules it
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if {@code period} is not positive
     * @throws IllegalStateException if the timer is closed
     * @throws RejectedExecutionException if the pending limit is reached
     */
    default Timeout scheduleAtFixedRate(Runnable task, Duration initialDelay, Duration period) {
        long initial = Delays.nanos(initialDelay, "initialDelay");
        return scheduleAtFixedRate(task, initial, Delays.period(period, "period"), TimeUnit.NANOSECONDS);
    }

    /**
     * Runs {@code task} after {@code initialDelay}, then every {@code period}, both in {@code unit},
     * measured from the first deadline.
     *
     * @param task what to run, not null
     * @param initialDelay the wait before the first run; zero or less means now
     * @param period the time between runs, positive
     * @param unit the unit of both, not null
     * @return the handle that cancels or reschedules it
     * @throws NullPointerException if {@code task} or {@code unit} is null
     * @throws IllegalArgumentException if {@code period} is not positive
     * @throws IllegalStateException if the timer is closed
     * @throws RejectedExecutionException if the pending limit is reached
     */
    Timeout scheduleAtFixedRate(Runnable task, long initialDelay, long period, TimeUnit unit);

    /**
     * Runs {@code task} after {@code initialDelay}, then again {@code delay} after each run ends.
     *
     * @param task what to run, not null
     * @param initialDelay the wait before the first run; zero or less means now
     * @param delay the wait between the end of a run and the next, positive
     * @return the handle that cancels or reschedules it
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if {@code delay} is not positive
     * @throws IllegalStateException if the timer is closed
     * @throws RejectedExecutionException if the pending limit is reached
     */
    default Timeout scheduleWithFixedDelay(Runnable task, Duration initialDelay, Duration delay) {
        long initial = Delays.nanos(initialDelay, "initialDelay");
        return scheduleWithFixedDelay(task, initial, Delays.period(delay, "delay"), TimeUnit.NANOSECONDS);
    }

    /**
     * Runs {@code task} after {@code initialDelay}, then again {@code delay} after each run ends,
     * both in {@code unit}.
     *
     * @param task what to run, not null
     * @param initialDelay the wait before the first run; zero or less means now
     * @param delay the wait between the end of a run and the next, positive
     * @param unit the unit of both, not null
     * @return the handle that cancels or reschedules it
     * @throws NullPointerException if {@code task} or {@code unit} is null
     * @throws IllegalArgumentException if {@code delay} is not positive
     * @throws IllegalStateException if the timer is closed
     * @throws RejectedExecutionException if the pending limit is reached
     */
    Timeout scheduleWithFixedDelay(Runnable task, long initialDelay, long delay, TimeUnit unit);

    /**
     * Runs {@code task} at a fixed rate as {@link #scheduleAtFixedRate(Runnable, Duration,
     * Duration)} does, handing each run the timeout, which stays the same from run to run (so the
     * task can cancel or reschedule itself); the task also hears of a successful {@link
     * Timeout#cancel()} through {@link TimerTask#cancelled}.
     *
     * @param task what to run, not null
     * @param initialDelay the wait before the first run; zero or less means now
     * @param period the time between runs, positive
     * @return the handle that cancels or reschedules it
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if {@code period} is not positive
     * @throws IllegalStateException if the timer is closed
     * @throws RejectedExecutionException if the pending limit is reached
     */
    default Timeout scheduleAtFixedRate(TimerTask task, Duration initialDelay, Duration period) {
        long initial = Delays.nanos(initialDelay, "initialDelay");
        return scheduleAtFixedRate(task, initial, Delays.period(period, "period"), TimeUnit.NANOSECONDS);
    }

    /**
     * Runs {@code task} at a fixed rate, both times in {@code unit}, handing each run its timeout.
     *
     * @param task what to run, not null
     * @param initialDelay the wait before the first run; zero or less means now
     * @param period the time between runs, positive
     * @param unit the unit of both, not null
     * @return the handle that cancels or reschedules it
     * @throws NullPointerException if {@code task} or {@code unit} is null
     * @throws IllegalArgumentException if {@code period} is not positive
     * @throws IllegalStateException if the timer is closed
     * @throws RejectedExecutionException if the pending limit is reached
     */
    Timeout scheduleAtFixedRate(TimerTask task, long initialDelay, long period, TimeUnit unit);

    /**
     * Runs {@code task} with a fixed delay as {@link #scheduleWithFixedDelay(Runnable, Duration,
     * Duration)} does, handing each run its timeout; the task also hears of a successful {@link
     * Timeout#cancel()} through {@link TimerTask#cancelled}.
     *
     * @param task what to run, not null
     * @param initialDelay the wait before the first run; zero or less means now
     * @param delay the wait between the end of a run and the next, positive
     * @return the handle that cancels or reschedules it
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if {@code delay} is not positive
     * @throws IllegalStateException if the timer is closed
     * @throws RejectedExecutionException if the pending limit is reached
     */
    default Timeout scheduleWithFixedDelay(TimerTask task, Duration initialDelay, Duration delay) {
        long initial = Delays.nanos(initialDelay, "initialDelay");
        return scheduleWithFixedDelay(task, initial, Delays.period(delay, "delay"), TimeUnit.NANOSECONDS);
    }

    /**
     * Runs {@code task} with a fixed delay, both times in {@code unit}, handing each run its timeout.
     *
     * @param task what to run, not null
     * @param initialDelay the wait before the first run; zero or less means now
     * @param delay the wait between the end of a run and the next, positive
     * @param unit the unit of both, not null
     * @return the handle that cancels or reschedules it
     * @throws NullPointerException if {@code task} or {@code unit} is null
     * @throws IllegalArgumentException if {@code delay} is not positive
     * @throws IllegalStateException if the timer is closed
     * @throws RejectedExecutionException if the pending limit is reached
     */
    Timeout scheduleWithFixedDelay(TimerTask task, long initialDelay, long delay, TimeUnit unit);

    /**
     * Returns the clock the timer reads.
     *
     * @return the clock given to the builder
     */
    NanoClock clock();

    /**
     * Returns the counters and the lateness histogram. The driver counts cancellations and runs on
     * its own thread, so a cancel made on another thread shows at the driver's next turn.
     *
     * @return a snapshot, not updated afterwards
     */
    TimerStats stats();

    /**
     * Stops the driver and returns the timeouts that were still pending, which will never run (each
     * reports {@link Timeout#isCancelled()}). Once stopping has begun the driver starts no task, not
     * even one already due; a run already handed to the executor still happens, after which a
     * periodic timeout is cancelled. Waits until the driver has stopped. Called from a task running
     * on the driver's own thread, it cannot wait for that thread: it returns an empty list and the
     * driver stops, cancelling what is pending, when the task returns. A second call returns an
     * empty list. A schedule racing with stop either throws or returns a timeout that ends
     * cancelled.
     *
     * @return the timeouts that never ran, in no particular order
     */
    List<Timeout> stop();

    /**
     * Stops the driver as {@link #stop()} does, dropping the list of timeouts that never ran; from
     * a task on the driver's thread it returns at once and the driver stops when the task returns.
     */
    @Override
    default void close() {
        stop();
    }

    /**
     * Tells whether {@link #stop()} or {@link #close()} was called.
     *
     * @return true once closing has begun
     */
    boolean isClosed();

    /** Receives the exception a task threw; the driver and any periodic schedule go on. */
    @FunctionalInterface
    interface ExceptionHandler {
        /**
         * Handles a task's exception; an exception thrown from here is dropped, after a report to
         * standard error, so that it cannot stop the driver.
         *
         * @param timeout the timeout whose task threw
         * @param error what it threw
         */
        void handle(Timeout timeout, Throwable error);
    }
}
