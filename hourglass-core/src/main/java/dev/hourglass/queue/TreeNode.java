package dev.hourglass.queue;

/**
 * A node of {@link RedBlackTreeQueue}: the timer itself, linked into the tree by its parent and
 * child pointers, so that a handle removes its own node without a search. A node is pending while
 * it is linked, which is exactly while {@code parent} is set: the root's parent is the queue's
 * sentinel, never null, and an unlinked node has every link cleared.
 *
 * <p>Thread-safety: none; it belongs to its queue's thread.
 */
final class TreeNode<T> extends QueueEntry<T> implements TimerHandle<T> {

    TreeNode<T> parent;
    TreeNode<T> left;
    TreeNode<T> right;
    boolean red;

    TreeNode(Object owner, T payload, long deadline) {
        super(owner, payload, deadline);
    }

    @Override
    public boolean isPending() {
        return parent != null;
    }
}
