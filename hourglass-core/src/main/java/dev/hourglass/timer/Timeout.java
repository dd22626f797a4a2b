package dev.hourglass.timer;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A task scheduled on a {@link Timer}: cancel it, move it, ask about it.
 *
 * <p>Complexity: every method is O(1) on the caller's side; cancel and an earlier reschedule hand
 * one message to the driver, a later reschedule none.
 *
 * <p>Ordering: operations on one timeout take effect in the order they return.
 *
 * <p>Thread-safety: every method may be called from any thread, including from the task itself.
 */
public interface Timeout {

    /**
     * Returns the task.
     *
     * @return the task given when scheduling
     */
    Runnable task();

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
     * @param delay the new delay, not negative
     * @return true if the timeout was pending and now runs at the new time; false if it had already
     *     run (a one-shot) or been cancelled, in which case nothing changes
     * @throws NullPointerException if {@code delay} is null
     * @throws IllegalArgumentException if {@code delay} is negative
     */
    boolean reschedule(Duration delay);

    /**
     * Moves the next run to {@code delay} in {@code unit} from now.
     *
     * @param delay the new delay, not negative
     * @param unit its unit, not null
     * @return true if the timeout was pending and now runs at the new time; false if it had already
     *     run (a one-shot) or been cancelled
     * @throws NullPointerException if {@code unit} is null
     * @throws IllegalArgumentException if {@code delay} is negative
     */
    boolean reschedule(long delay, TimeUnit unit);

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
