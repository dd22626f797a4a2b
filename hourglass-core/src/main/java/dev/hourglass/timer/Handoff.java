package dev.hourglass.timer;

/**
 * What a {@link TimeoutNode} needs from its driver, and nothing more: whether the caller is the
 * driver's thread, how to hand the node over, and the clock. The node knows no engine, so the
 * timeout and the engine do not call each other in a circle.
 *
 * <p>Thread-safety: every method may be called from any thread.
 */
interface Handoff {

    /** True if the calling thread is the driver's own. */
    boolean onDriverThread();

    /**
     * Hands a node whose state changed to the driver: applied at once on the driver's thread,
     * pushed onto the intake elsewhere (the caller has set the node's queued bit). The driver is
     * woken if {@code wake} and the node's deadline is earlier than the one it sleeps towards.
     *
     * @return false if the driver had stopped before it could take the node, which is then
     *     cancelled
     */
    boolean handOver(TimeoutNode node, boolean wake);

    /** The clock deadlines are read from. */
    long nanoTime();

    /** The timer the node belongs to. */
    Timer timer();
}
