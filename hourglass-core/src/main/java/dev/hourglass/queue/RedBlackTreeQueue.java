package dev.hourglass.queue;

import java.util.function.Consumer;

/**
 * Timers in a red-black tree, as nginx and Linux's hrtimers keep them, keyed by (deadline,
 * insertion sequence); ties go right, which orders equal deadlines by insertion without storing the
 * sequence. The leftmost node is cached, so the next deadline is read without a descent. The tree
 * is built with a per-queue black sentinel for every leaf and for the root's parent (CLRS style),
 * so the rebalancing needs no null checks.
 *
 * <p>Complexity: schedule, cancel and reschedule O(log n); next deadline O(1); each delivered
 * timer O(log n) to unlink, with its successor found in O(1).
 *
 * <p>Order: exact, by (deadline, insertion); a reschedule goes after every equal deadline.
 *
 * <p>Thread-safety: none; confine to one thread.
 */
final class RedBlackTreeQueue<T> extends AbstractTimerQueue<T, TreeNode<T>> {

    /** Every leaf and the root's parent; always black. Its parent is scratch space for deletion. */
    private final TreeNode<T> nil = new TreeNode<>(null, null, 0);

    private TreeNode<T> root = nil;

    /** The leftmost node, the earliest (deadline, insertion); {@code nil} when empty. */
    private TreeNode<T> first = nil;

    RedBlackTreeQueue(long startTime) {
        super(startTime);
    }

    @Override
    TreeNode<T> newEntry(T payload, long deadline) {
        return new TreeNode<>(this, payload, deadline);
    }

    @Override
    void insert(TreeNode<T> entry) {
        TreeNode<T> parent = nil;
        TreeNode<T> x = root;
        boolean goLeft = false;
        boolean leftmost = true;
        while (x != nil) {
            parent = x;
            goLeft = before(entry.deadline, x.deadline);
            if (goLeft) {
                x = x.left;
            } else {
                x = x.right;
                leftmost = false;
            }
        }
        entry.parent = parent;
        entry.left = nil;
        entry.right = nil;
        entry.red = true;
        if (parent == nil) {
            root = entry;
        } else if (goLeft) {
            parent.left = entry;
        } else {
            parent.right = entry;
        }
        if (leftmost) {
            first = entry;
        }
        insertFixup(entry);
    }

    private void insertFixup(TreeNode<T> z) {
        // A red parent is never the black root, so the grandparent is a real node.
        while (z.parent.red) {
            TreeNode<T> p = z.parent;
            TreeNode<T> g = p.parent;
            if (p == g.left) {
                TreeNode<T> uncle = g.right;
                if (uncle.red) {
                    p.red = false;
                    uncle.red = false;
                    g.red = true;
                    z = g;
                } else {
                    if (z == p.right) {
                        z = p;
                        rotateLeft(z);
                    }
                    z.parent.red = false;
                    g.red = true;
                    rotateRight(g);
                }
            } else {
                TreeNode<T> uncle = g.left;
                if (uncle.red) {
                    p.red = false;
                    uncle.red = false;
                    g.red = true;
                    z = g;
                } else {
                    if (z == p.left) {
                        z = p;
                        rotateRight(z);
                    }
                    z.parent.red = false;
                    g.red = true;
                    rotateLeft(g);
                }
            }
        }
        root.red = false;
    }

    @Override
    void remove(TreeNode<T> entry) {
        if (entry == first) {
            first = successorOfFirst();
        }
        delete(entry);
    }

    /**
     * The in-order successor of the leftmost node, in O(1): with no left child, the leftmost node
     * has no black node below it on the left, so none on the right either, and its right subtree is
     * empty or a single red node.
     */
    private TreeNode<T> successorOfFirst() {
        return first.right != nil ? first.right : first.parent;
    }

    private void delete(TreeNode<T> z) {
        TreeNode<T> x;
        boolean removedBlack = !z.red;
        if (z.left == nil) {
            x = z.right;
            transplant(z, z.right);
        } else if (z.right == nil) {
            x = z.left;
            transplant(z, z.left);
        } else {
            // Two children: z's successor y takes z's place and colour, so the handle's node itself
            // leaves the tree (no key swap between nodes), and the colour lost is y's.
            TreeNode<T> y = leftmost(z.right);
            removedBlack = !y.red;
            x = y.right;
            if (y.parent == z) {
                // x may be the sentinel; the fixup climbs from x through its parent.
                x.parent = y;
            } else {
                transplant(y, y.right);
                y.right = z.right;
                y.right.parent = y;
            }
            transplant(z, y);
            y.left = z.left;
            y.left.parent = y;
            y.red = z.red;
        }
        if (removedBlack) {
            deleteFixup(x);
        }
        // Transplanting the sentinel parks a node in its parent link; drop it so that a removed
        // node and its payload can be collected.
        nil.parent = null;
        z.parent = null;
        z.left = null;
        z.right = null;
    }

    /** Puts {@code v} where {@code u} hangs; sets {@code v.parent} even when v is the sentinel. */
    private void transplant(TreeNode<T> u, TreeNode<T> v) {
        TreeNode<T> p = u.parent;
        if (p == nil) {
            root = v;
        } else if (u == p.left) {
            p.left = v;
        } else {
            p.right = v;
        }
        v.parent = p;
    }

    /**
     * Restores equal black heights after a black node left the path through {@code x}, which
     * carries an extra black. The sibling is never the sentinel: its side has black height at least
     * one more than x's.
     */
    private void deleteFixup(TreeNode<T> x) {
        while (x != root && !x.red) {
            TreeNode<T> p = x.parent;
            if (x == p.left) {
                TreeNode<T> w = p.right;
                if (w.red) {
                    w.red = false;
                    p.red = true;
                    rotateLeft(p);
                    w = p.right;
                }
                if (!w.left.red && !w.right.red) {
                    w.red = true;
                    x = p;
                } else {
                    if (!w.right.red) {
                        w.left.red = false;
                        w.red = true;
                        rotateRight(w);
                        w = p.right;
                    }
                    w.red = p.red;
                    p.red = false;
                    w.right.red = false;
                    rotateLeft(p);
                    x = root;
                }
            } else {
                TreeNode<T> w = p.left;
                if (w.red) {
                    w.red = false;
                    p.red = true;
                    rotateRight(p);
                    w = p.left;
                }
                if (!w.right.red && !w.left.red) {
                    w.red = true;
                    x = p;
                } else {
                    if (!w.left.red) {
                        w.right.red = false;
                        w.red = true;
                        rotateLeft(w);
                        w = p.left;
                    }
                    w.red = p.red;
                    p.red = false;
                    w.left.red = false;
                    rotateRight(p);
                    x = root;
                }
            }
        }
        x.red = false;
    }

    private void rotateLeft(TreeNode<T> x) {
        TreeNode<T> y = x.right;
        x.right = y.left;
        if (y.left != nil) {
            y.left.parent = x;
        }
        replaceChild(x, y);
        y.left = x;
        x.parent = y;
    }

    private void rotateRight(TreeNode<T> x) {
        TreeNode<T> y = x.left;
        x.left = y.right;
        if (y.right != nil) {
            y.right.parent = x;
        }
        replaceChild(x, y);
        y.right = x;
        x.parent = y;
    }

    /** Hangs {@code y} where {@code x} hangs, for a rotation. */
    private void replaceChild(TreeNode<T> x, TreeNode<T> y) {
        TreeNode<T> p = x.parent;
        y.parent = p;
        if (p == nil) {
            root = y;
        } else if (x == p.left) {
            p.left = y;
        } else {
            p.right = y;
        }
    }

    @Override
    int expire(long now, Consumer<? super TimerHandle<T>> consumer, int limit) {
        int count = 0;
        while (count < limit && first != nil && first.deadline - now <= 0) {
            TreeNode<T> e = first;
            remove(e);
            deliver(e, consumer);
            count++;
        }
        return count;
    }

    @Override
    long earliest() {
        return first.deadline;
    }

    @Override
    void removeAll(Consumer<? super TreeNode<T>> sink) {
        TreeNode<T> x = root;
        root = nil;
        first = nil;
        // Post-order through the parent links: detach each leaf, then climb. No stack, O(n).
        while (x != nil) {
            if (x.left != nil) {
                x = x.left;
            } else if (x.right != nil) {
                x = x.right;
            } else {
                TreeNode<T> p = x.parent;
                if (p.left == x) {
                    p.left = nil;
                } else {
                    p.right = nil;
                }
                x.parent = null;
                x.left = null;
                x.right = null;
                sink.accept(x);
                x = p;
            }
        }
        nil.parent = null;
    }

    /**
     * Checks the red-black invariants and the caches, throwing {@link AssertionError} on the first
     * violation; for tests, O(n).
     */
    void checkInvariants() {
        if (nil.red) {
            throw broken("the sentinel is black");
        }
        if (root.red) {
            throw broken("the root is black");
        }
        if (root != nil && root.parent != nil) {
            throw broken("the root hangs from the sentinel");
        }
        blackHeight(root);
        if (first != leftmost(root)) {
            throw broken("the cached first node is the leftmost");
        }
        int count = 0;
        TreeNode<T> previous = nil;
        for (TreeNode<T> x = first; x != nil; x = successor(x)) {
            if (previous != nil && before(x.deadline, previous.deadline)) {
                throw broken("in order: " + previous + ", " + x);
            }
            previous = x;
            count++;
        }
        if (count != size) {
            throw broken("the tree holds size() nodes: " + count + " != " + size);
        }
    }

    /** Checks colours and links under {@code x} and returns its black height. */
    private int blackHeight(TreeNode<T> x) {
        if (x == nil) {
            return 1;
        }
        if (!x.isPending()) {
            throw broken("a linked node is pending: " + x);
        }
        if (x.left != nil && x.left.parent != x) {
            throw broken("left child's parent link: " + x);
        }
        if (x.right != nil && x.right.parent != x) {
            throw broken("right child's parent link: " + x);
        }
        if (x.red && (x.left.red || x.right.red)) {
            throw broken("no red node has a red child: " + x);
        }
        int left = blackHeight(x.left);
        int right = blackHeight(x.right);
        if (left != right) {
            throw broken("equal black heights under " + x + ": " + left + " != " + right);
        }
        return left + (x.red ? 0 : 1);
    }

    private TreeNode<T> leftmost(TreeNode<T> x) {
        while (x != nil && x.left != nil) {
            x = x.left;
        }
        return x;
    }

    private TreeNode<T> successor(TreeNode<T> x) {
        if (x.right != nil) {
            return leftmost(x.right);
        }
        while (x.parent != nil && x == x.parent.right) {
            x = x.parent;
        }
        return x.parent;
    }

    private static AssertionError broken(String invariant) {
        return new AssertionError("red-black invariant broken: " + invariant);
    }
}
