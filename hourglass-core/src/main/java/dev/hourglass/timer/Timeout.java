package dev.hourglass.timer;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A task scheduled on a {@link Timer}: cancel it, move it, ask about it. It is a handle only: it
 * cannot be cast to {@link Runnable} to run someone's task.
 *
 * <p>Complexity: every method is O(1) on the caller's side: cancel is one compare-and-set and at
 * most one hand-off to the driver, a later reschedule one compare-and-set and a clock reading (a
 * later {@link #rescheduleAt} none), an earlier one also a hand-off.
 *
 * <p>Ordering: operations on one timeout take effect in the order they return.
 *
 * <p>Thread-safety: every method may be called from any thread, including from the task itself.
 */
public interface Timeout {

    /**
     * Returns the task.
     *
     * @return the {@link Runnable} or {@link TimerTask} given when scheduling
     */
    Object task();

    /**
     * Returns the timer this timeout was scheduled on.
     *
     * @return the timer
     */
    Timer timer();

    /**
     * Cancels the timeout.
     *
     * @return true if the task will never run again because of this call; false if it already ran
     *     (a one-shot), is running right now (a one-shot), or was already cancelled
     */
    boolean cancel();

    /**
     * Moves the next run to {@code delay} from now, keeping this handle and allocating nothing. On
     * a periodic timeout it moves the next run; the period then continues from there.
     *
     * @param delay the new delay; zero or less means now
     * @return true if the timeout was pending and now runs at the new time; false if it had already
     *     run (a one-shot) or been cancelled, in which case nothing changes
     * @throws NullPointerException if {@code delay} is null
     */
    boolean reschedule(Duration delay);

    /**
     * Moves the next run to {@code delay} in {@code unit} from now.
     *
     * @param delay the new delay; zero or less means now
     * @param unit its unit, not null
     * @return true if the timeout was pending and now runs at the new time; false if it had already
     *     run (a one-shot) or been cancelled
     * @throws NullPointerException if {@code unit} is null
     */
    boolean reschedule(long delay, TimeUnit unit);

    /**
     * Moves the next run to the moment the timer's clock ({@link Timer#clock()}) reads {@code
     * deadline}: for callers that read the clock once for many timeouts, as an event loop can for
     * the connections of one wake-up. A later move then reads no clock at all (a reading can
     * cost more than the rest of the move); an earlier one may read it once, to tell how soon the
     * driver must know.
     *
     * <p>The call is exact for a reading of the timer's clock plus a delay of at most {@link
     * Timer#MAX_DELAY_NANOS}, the reading not older than that either; such a deadline already
     * reached means now. The timer compares deadlines as it compares its clock's readings, by
     * subtraction, and any {@code long} can be such a deadline (a clock's readings start anywhere),
     * so no value is refused; another number, such as a delay passed by mistake, is read as a time
     * that may lie in the past (the task runs now) or far ahead.
     *
     * @param deadline a reading of the timer's clock plus the delay wanted, in nanoseconds
     * @return true if the timeout was pending and now runs at the new time; false if it had already
     *     run (a one-shot) or been cancelled, in which case nothing changes
     */
    boolean rescheduleAt(long deadline);

    /**
     * Tells whether the timeout was cancelled, by {@link #cancel()} or by closing the timer.
     *
     * @return true once cancelled
     */
    boolean isCancelled();

    /**
     * Tells whether a one-shot timeout's task has started running; always false for a periodic one.
     *
     * @return true once the task started
     */
    boolean isExpired();

    /**
     * Tells whether the timeout repeats.
     *
     * @return true for fixed-rate and fixed-delay timeouts
     */
    boolean isPeriodic();

    /**
     * Returns the time left until the next run, in {@code unit}: negative when overdue, 0 or less
     * once expired or cancelled.
     *
     * @param unit the unit of the answer, not null
     * @return the time left, rounded towards zero
     */
    long remaining(TimeUnit unit);
}
