package dev.hourglass.bench.queue;

/**
 * The few operations a queue-level benchmark needs, over timers named by a slot number, so one
 * benchmark body drives every Hourglass structure and Agrona's wheel alike. A slot holds at most
 * one timer.
 *
 * <p>Complexity: that of the structure underneath plus an array access. Ordering: the structure's.
 *
 * <p>Thread-safety: none, like the structures it wraps.
 */
public interface BenchQueue {

    /**
     * Schedules a timer in an empty slot.
     *
     * @param slot the slot, from 0 to the capacity given at creation
     * @param deadline the deadline in simulated nanoseconds
     */
    void schedule(int slot, long deadline);

    /**
     * Moves the slot's pending timer to a new deadline (Agrona: cancel plus schedule).
     *
     * @param slot a slot holding a pending timer
     * @param deadline the new deadline in simulated nanoseconds
     */
    void reschedule(int slot, long deadline);

    /**
     * Cancels the slot's timer and empties the slot.
     *
     * @param slot a slot holding a timer
     */
    void cancel(int slot);

    /**
     * Delivers every timer due at {@code now}, in as many polls as the structure needs.
     *
     * @param now the simulated time, never before the previous poll's
     * @return how many timers fired
     */
    int pollAll(long now);

    /**
     * Returns how many timers are pending.
     *
     * @return the number of pending timers
     */
    long size();
}
