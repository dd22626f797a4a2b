package dev.hourglass.queue;

import java.util.Objects;
import java.util.function.Consumer;

/**
 * The entry API for drivers: a view of a {@link TimerQueue} that links the driver's own {@link
 * TimerNode}s, so a driver's timeout is the node the structure links. Offered by the structures
 * that deliver a node at or before its deadline even when another thread moved that deadline later
 * after the node was linked: the unsorted list (it scans the deadlines as they are), the
 * hierarchical wheel (a near slot delivers all it holds; an upper slot or the overflow list places
 * its nodes again by their deadlines as they are) and the hashed wheels (a node stays in the group
 * of the tick it was filed for, and the whole group is delivered when that tick comes; the sorted
 * one orders the group by the deadlines as they are then). The driver files such a node again when
 * it is delivered early. The others would deliver it late or out of order: the sorted list, the
 * tree, the heaps and the skip list keep nodes in deadline order, and the simple wheel cannot hold
 * a deadline beyond its range. A driver wraps its timeout in their handles instead ({@link
 * #supports} tells which).
 *
 * <p>A queue used through this view holds only nodes; the {@link TimerQueue} view stays usable for
 * its queries ({@link TimerQueue#nextDeadline()}, {@link TimerQueue#size()}, ...).
 *
 * <p>Complexity: that of the structure's schedule, cancel, reschedule and poll.
 *
 * <p>Ordering: the structure's; a node is delivered when its place is due, which may be before a
 * deadline moved later.
 *
 * <p>Thread-safety: none; the queue's thread only.
 */
public final class NodeQueue {

    private final AbstractTimerQueue<Object, LinkedEntry<Object>> queue;

    private NodeQueue(AbstractTimerQueue<Object, LinkedEntry<Object>> queue) {
        this.queue = queue;
    }

    /**
     * Tells whether {@code queue} can link driver nodes.
     *
     * @param queue any queue, not null
     * @return true for the unsorted list, the hierarchical wheel and the hashed wheels
     */
    public static boolean supports(TimerQueue<?> queue) {
        Objects.requireNonNull(queue, "queue");
        return queue instanceof UnsortedListQueue
                || queue instanceof HierarchicalTimingWheel
                || queue instanceof AbstractHashedWheel;
    }

    /**
     * Returns the node view of {@code queue}.
     *
     * @param queue a queue that {@link #supports} nodes
     * @return the view
     * @throws IllegalArgumentException if the queue cannot link nodes
     */
    @SuppressWarnings("unchecked")
    public static NodeQueue of(TimerQueue<?> queue) {
        if (!supports(queue)) {
            throw new IllegalArgumentException("queue cannot link driver nodes: " + queue);
        }
        return new NodeQueue((AbstractTimerQueue<Object, LinkedEntry<Object>>) queue);
    }

    /**
     * Returns the queue this view files into.
     *
     * @return the queue
     */
    public TimerQueue<?> queue() {
        return queue;
    }

    /**
     * Returns when a driver should poll next: at or before {@link TimerQueue#nextDeadline()}, so a
     * driver that sleeps until it and polls then misses no delivery, and cheaper to find. The
     * hierarchical wheel answers with the cascade of an upper slot when that comes first, unless the
     * slot's earliest timer is known or the slot holds at most a few timers (a poll at that timer
     * cascades on its way, and the driver is spared a wake-up): it never scans a long slot.
     *
     * <p>Complexity: O(levels × slots / 64) plus a scan of at most 16 timers for the hierarchical
     * wheel; O(occupied slots passed), at most O(slots), for the hashed wheels; {@link
     * TimerQueue#nextDeadline()}'s for the unsorted list.
     *
     * @return a time in nanoseconds; {@code time() + Long.MAX_VALUE} if the queue is empty
     */
    public long nextWork() {
        return queue.nextWork();
    }

    /**
     * Links a node at its deadline.
     *
     * @param node a node made for this queue, not linked
     * @throws IllegalArgumentException if the node was made for another queue or is linked
     * @throws IllegalStateException if the queue has reached its maximum size
     */
    public void insert(TimerNode node) {
        own(node);
        if (node.isPending()) {
            throw new IllegalArgumentException("node is linked already: " + node);
        }
        queue.insertNode(node);
    }

    /**
     * Unlinks a node if it is linked.
     *
     * @param node a node made for this queue
     * @return true if it was linked
     * @throws IllegalArgumentException if the node was made for another queue
     */
    public boolean remove(TimerNode node) {
        own(node);
        return queue.removeNode(node);
    }

    /**
     * Places a linked node again at the deadline it holds now (after a move earlier).
     *
     * @param node a linked node of this queue
     * @throws IllegalArgumentException if the node was made for another queue or is not linked
     */
    public void move(TimerNode node) {
        own(node);
        if (!node.isPending()) {
            throw new IllegalArgumentException("node is not linked: " + node);
        }
        queue.moveNode(node);
    }

    /**
     * Delivers the nodes whose places are due, as {@link TimerQueue#poll} does; each is unlinked
     * before {@code sink} sees it, and {@code sink} may insert, remove and move nodes.
     *
     * @param now the current time, not before the queue's time
     * @param sink receives each due node
     * @param limit the most nodes to deliver, at least 0
     * @return how many nodes were delivered
     */
    public int poll(long now, Consumer<? super TimerNode> sink, int limit) {
        return queue.poll(now, asHandles(sink), limit);
    }

    /**
     * Unlinks every node, handing each to {@code sink}, as {@link TimerQueue#clear} does.
     *
     * @param sink receives each removed node
     * @return how many nodes were removed
     */
    public int clear(Consumer<? super TimerNode> sink) {
        return queue.clear(asHandles(sink));
    }

    // The queue passes its entries to the consumer without a cast (see deliver), and a queue used
    // through this view holds nothing but nodes.
    @SuppressWarnings("unchecked")
    private static Consumer<TimerHandle<Object>> asHandles(Consumer<? super TimerNode> sink) {
        Objects.requireNonNull(sink, "sink");
        return (Consumer<TimerHandle<Object>>) (Consumer<?>) sink;
    }

    private void own(TimerNode node) {
        Objects.requireNonNull(node, "node");
        if (node.owner != queue) {
            throw new IllegalArgumentException("node belongs to another queue: " + node);
        }
    }

    @Override
    public String toString() {
        return "NodeQueue[" + queue + "]";
    }
}
