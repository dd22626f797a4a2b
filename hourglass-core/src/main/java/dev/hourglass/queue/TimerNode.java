package dev.hourglass.queue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A timer that a driver links into a queue itself, so that one object is both the driver's
 * timeout and the structure's node: no second object, the deadline stored once. Drivers extend it
 * and file their nodes through a {@link NodeQueue}; users of {@link TimerQueue} never see it.
 *
 * <p>The deadline may be moved later by another thread while the node is linked ({@link
 * #setDeadline}); the queue then delivers the node at or before the new deadline (at its old
 * place), and the driver files it again. A move earlier must be followed by a {@link
 * NodeQueue#move} on the queue's thread.
 *
 * <p>Complexity: O(1) per method. Ordering: not applicable.
 *
 * <p>Thread-safety: the deadline accessors may be used from any thread; everything else belongs to
 * the queue's thread.
 */
public abstract class TimerNode extends LinkedEntry<Object> {

    private static final VarHandle DEADLINE;

    static {
        try {
            DEADLINE = MethodHandles.lookup().findVarHandle(QueueEntry.class, "deadline", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * Makes a node, not linked yet.
     *
     * @param queue the queue whose {@link NodeQueue} will file it; checked when it is inserted
     * @param payload what the driver keeps in it, for example the task
     * @param deadline the first deadline
     */
    protected TimerNode(TimerQueue<?> queue, Object payload, long deadline) {
        super(queue, payload, deadline);
    }

    /**
     * Reads the deadline from any thread; 64-bit values are never seen half-written.
     *
     * @return the deadline in nanoseconds
     */
    protected final long deadlineOpaque() {
        return (long) DEADLINE.getOpaque(this);
    }

    /**
     * Writes the deadline from any thread. The driver synchronizes with the writer by other means
     * (its state word) before it trusts the value; the queue reads it only to place the node.
     *
     * @param deadline the new deadline in nanoseconds
     */
    protected final void setDeadline(long deadline) {
        DEADLINE.setOpaque(this, deadline);
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[deadline=" + deadline + (isPending() ? ", linked]" : "]");
    }
}
