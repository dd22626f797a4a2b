package dev.hourglass.bench.footprint;

/**
 * One timer implementation under measurement, holding up to a fixed number of timers by index.
 * Every timer shares one task or payload, so only what the implementation itself allocates counts.
 *
 * <p>Complexity: that of the implementation. Ordering: n/a. Thread-safety: called from one thread.
 */
interface Subject {

    /** Creates the structure (and starts its thread, if it has one). */
    void open();

    /**
     * Schedules timer {@code index}.
     *
     * @param index from 0 to the capacity given at creation
     * @param delayNanos its delay from now, at least 10 s
     */
    void schedule(int index, long delayNanos);

    /**
     * Waits until the implementation has taken in every scheduled timer (a driver thread that moves
     * them from its inbox into its wheel), so the figure is the settled one.
     *
     * @throws InterruptedException if interrupted while waiting
     */
    default void settle() throws InterruptedException {}

    /**
     * Keeps the implementation's own thread, if any, from cleaning cancelled timers up until {@link
     * #close}, so the measurement sees what it retains until its next tick or purge.
     *
     * @throws InterruptedException if interrupted while waiting for the thread to stop
     */
    default void hold() throws InterruptedException {}

    /**
     * Cancels timer {@code index} and forgets its handle.
     *
     * @param index a scheduled timer
     */
    void cancel(int index);

    /**
     * Returns the root of the implementation's object graph when it has no thread of its own, for
     * measuring its fixed size with JOL.
     *
     * @return the structure, or null when a thread is part of it (the graph would take in the
     *     whole class loader)
     */
    default Object root() {
        return null;
    }

    /** Stops the implementation and releases its thread. */
    void close();
}
