package dev.hourglass.timer;

import java.util.concurrent.atomic.AtomicReference;

/**
 * The hand-off from any thread to the driver: a wait-free multi-producer stack of {@link
 * TimeoutNode}s linked through the nodes themselves, so a push allocates nothing and costs one
 * exchange. A producer exchanges the top for its node, then links its node to the old top; until
 * that link is written the node points at {@link #UNLINKED}, and the driver, which takes the whole
 * stack in one exchange, waits those few instructions out. The driver reverses what it took, so
 * one producer's nodes come out in the order it pushed them.
 *
 * <p>A node must not be pushed again before the driver took it: its queued bit guards that.
 *
 * <p>Complexity: push O(1), wait-free; take O(nodes taken).
 *
 * <p>Thread-safety: {@link #push} from any thread; {@link #takeAll} from one consumer at a time.
 */
final class Intake {

    /** The link of a node whose producer has not linked it yet. */
    static final TimeoutNode UNLINKED = new TimeoutNode(null, null, "unlinked", 0, TimeoutNode.CANCELLED);

    private final AtomicReference<TimeoutNode> top = new AtomicReference<>();

    /** Pushes a node; returns true if the stack was empty. */
    boolean push(TimeoutNode node) {
        node.intakeNext(UNLINKED);
        TimeoutNode previous = top.getAndSet(node);
        node.intakeNext(previous);
        return previous == null;
    }

    boolean isEmpty() {
        return top.get() == null;
    }

    /** Takes every node pushed so far, oldest first per producer; null if none. */
    TimeoutNode takeAll() {
        TimeoutNode node = top.getAndSet(null);
        TimeoutNode reversed = null;
        while (node != null) {
            TimeoutNode next = node.intakeNext();
            for (int spins = 0; next == UNLINKED; spins++) {
                // Its producer is between its exchange and its link.
                if (spins < 100) {
                    Thread.onSpinWait();
                } else {
                    Thread.yield();
                }
                next = node.intakeNext();
            }
            node.intakeNext(reversed);
            reversed = node;
            node = next;
        }
        return reversed;
    }

    /** The node after {@code node} in a list returned by {@link #takeAll}; clears the link. */
    static TimeoutNode next(TimeoutNode node) {
        TimeoutNode next = node.intakeNext();
        node.intakeNext(null);
        return next;
    }
}
