package dev.hourglass.redis;

/**
 * Handles the deliveries of one queue. Returning acknowledges the delivery (the timer is done and
 * deleted); throwing makes the node retry it after a backoff, or park it in the dead letters once its
 * attempts are used up.
 *
 * <p>Delivery is at least once: a node that crashes or loses its connection for longer than the
 * lease before acknowledging, or a handler that runs past its timeout (it is interrupted, and what it
 * returns later is ignored), causes another delivery, with a higher {@link Delivery#attempt()} and
 * {@link Delivery#fencingToken()}. A handler with effects that must not repeat deduplicates by id
 * and attempt (or keeps the largest fencing token per id in its own store and refuses smaller ones).
 *
 * <p>Complexity, ordering: up to the implementation; deliveries of one queue may run concurrently,
 * in any order. Thread-safety: called from the node's handler executor, possibly from several
 * threads at once.
 */
@FunctionalInterface
public interface TimerHandler {
    /**
     * Handles one delivery.
     *
     * @param delivery the timer that is due
     * @throws Exception to have the delivery retried (or dead-lettered)
     */
    void handle(Delivery delivery) throws Exception;
}
