package dev.hourglass.timer;

/**
 * What a {@link TimeoutNode} needs from its driver, and nothing more: whether the caller is the
 * driver's thread, how to hand the node over, and the clock. The node knows no engine, so the
 * timeout and the engine do not call each other in a circle.
 *
 * <p>An abstract class, not an interface, so that {@link TimerDriver}, which is public, can
 * implement {@link #handOver} without exposing the package-private node type.
 *
 * <p>Thread-safety: every method may be called from any thread.
 */
abstract class Handoff {

    /** True if the calling thread is the driver's own. */
    abstract boolean onDriverThread();

    /**
     * Hands a node whose state changed to the driver: applied at once on the driver's thread,
     * pushed onto the intake elsewhere (the caller has set the node's queued bit). The driver is
     * woken if {@code wake} and the node's deadline is earlier than the one it sleeps towards. An
     * {@code urgent} node makes an awake driver turn again; any other may wait while it naps
     * (see {@link TimerDriver#NAP_NANOS}), or, pushed while it sleeps, until it wakes.
     *
     * @return false if the driver had stopped before it could take the node, which is then
     *     cancelled
     */
    abstract boolean handOver(TimeoutNode node, boolean wake, boolean urgent);

    /**
     * Tells the driver that a node already handed over (its queued bit set) now wants an earlier
     * deadline, less than a nap away: the driver must take it in at its next turn.
     */
    abstract void hurry(TimeoutNode node);

    /** The clock deadlines are read from. */
    abstract long nanoTime();

    /** The timer the node belongs to. */
    abstract Timer timer();
}
