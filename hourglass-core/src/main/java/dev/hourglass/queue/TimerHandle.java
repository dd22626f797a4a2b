package dev.hourglass.queue;

/**
 * A timer scheduled on a {@link TimerQueue}: the payload, the latest deadline and whether it is
 * still waiting. The same handle stays valid across {@link TimerQueue#reschedule reschedules}.
 *
 * <p>Complexity: every method is O(1). Ordering: see {@link TimerQueue}.
 *
 * <p>Thread-safety: none; read a handle on the thread that owns its queue.
 *
 * @param <T> the payload type
 */
public interface TimerHandle<T> {

    /**
     * Returns the payload given when the timer was scheduled.
     *
     * @return the payload, never null
     */
    T payload();

    /**
     * Returns the deadline most recently given to schedule or reschedule; it stays readable after
     * the timer fired or was cancelled.
     *
     * @return the deadline in nanoseconds
     */
    long deadline();

    /**
     * Tells whether the timer is waiting in its queue: false once it was delivered by a poll,
     * cancelled or cleared.
     *
     * @return true while the timer is pending
     */
    boolean isPending();
}
