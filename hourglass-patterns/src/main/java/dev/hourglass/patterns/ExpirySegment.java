package dev.hourglass.patterns;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One stripe of an {@link ExpiringMap}: a chained hash table of {@link ExpiryNode}s with lock-free
 * lookups, the {@link ExpiryWheel} of the same nodes, and the lock that guards every change to
 * both. Keys are spread over the stripes by hash, so writers to different stripes never meet.
 *
 * <p>Lookups walk a chain without the lock. A chain changes in place: a new node is linked at the
 * head, a removed node is unlinked from its predecessor and keeps its own link, so a reader standing
 * on it walks on. Growing the table relinks every node, which could send a concurrent reader down
 * the wrong chain: a counter, odd while the table grows, tells a reader that missed to look again
 * under the lock. A hit needs no check: a node found holds the key.
 *
 * <p>Complexity: lookups, inserts and unlinks O(1) expected; growing O(n) amortised to O(1).
 * Ordering: not applicable.
 *
 * <p>Thread-safety: {@link #find} from any thread; everything else with {@link #lock} held.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
final class ExpirySegment<K, V> {

    private static final VarHandle BINS = MethodHandles.arrayElementVarHandle(ExpiryNode[].class);
    private static final VarHandle COUNT;

    static {
        try {
            COUNT = MethodHandles.lookup().findVarHandle(ExpirySegment.class, "count", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final int INITIAL_BINS = 16;

    /** A reader that walked this many nodes checks whether the table is growing under it. */
    private static final int WALK_CHECK = 64;

    final ReentrantLock lock = new ReentrantLock();
    final ExpiryWheel<K, V> wheel;

    private volatile ExpiryNode<K, V>[] table = newTable(INITIAL_BINS);

    /** Counts table growths: odd while one is under way. */
    private volatile int growths;

    /**
     * Under the lock: nodes in the table, live or expired. Written opaquely (a plain store on
     * common hardware) so that {@link #publishedCount} may read it without the lock.
     */
    private int count;

    ExpirySegment(long origin, long tickNanos) {
        this.wheel = new ExpiryWheel<>(origin, tickNanos);
    }

    /** The hash every stripe uses for {@code key}: its hash code with the high bits folded in. */
    static int hash(Object key) {
        int h = key.hashCode();
        return h ^ (h >>> 16);
    }

    /** Finds the node of {@code key}, live or expired, without the lock. */
    ExpiryNode<K, V> find(Object key, int hash) {
        int seen = growths;
        if ((seen & 1) == 0) {
            ExpiryNode<K, V>[] bins = table;
            int walked = 0;
            for (ExpiryNode<K, V> node = bin(bins, hash & (bins.length - 1)); node != null; node = node.next()) {
                Object k = node.key;
                if (k == key || key.equals(k)) {
                    return node;
                }
                if (++walked >= WALK_CHECK && growths != seen) {
                    break;
                }
            }
            if (growths == seen) {
                return null;
            }
        }
        lock.lock();
        try {
            return findLocked(key, hash);
        } finally {
            lock.unlock();
        }
    }

    /** Under the lock: finds the node of {@code key}, live or expired. */
    ExpiryNode<K, V> findLocked(Object key, int hash) {
        ExpiryNode<K, V>[] bins = table;
        for (ExpiryNode<K, V> node = bin(bins, hash & (bins.length - 1)); node != null; node = node.next()) {
            Object k = node.key;
            if (k == key || key.equals(k)) {
                return node;
            }
        }
        return null;
    }

    /** Under the lock: adds a node whose key is absent, to the table and the wheel. */
    void insert(ExpiryNode<K, V> node, int hash) {
        ExpiryNode<K, V>[] bins = table;
        int index = hash & (bins.length - 1);
        node.next(bin(bins, index));
        BINS.setRelease(bins, index, node);
        wheel.file(node);
        int n = count + 1;
        COUNT.setOpaque(this, n);
        if (n > bins.length - (bins.length >>> 2)) {
            grow();
        }
    }

    /** Under the lock: takes a node out of the table and the wheel. */
    void unlink(ExpiryNode<K, V> node, int hash) {
        wheel.remove(node);
        unchain(node, hash);
    }

    /**
     * Under the lock: hands up to {@code limit} due nodes whose tick has ended to {@code expired},
     * out of the table and the wheel.
     *
     * @return the nodes handled, expired or filed again
     */
    int expire(long now, int limit, List<ExpiryNode<K, V>> expired) {
        int from = expired.size();
        int handled = wheel.poll(now, limit, expired);
        unchainFrom(from, expired);
        return handled;
    }

    private void unchainFrom(int from, List<ExpiryNode<K, V>> expired) {
        for (int i = from; i < expired.size(); i++) {
            ExpiryNode<K, V> node = expired.get(i);
            unchain(node, hash(node.key));
        }
    }

    /** Under the lock: hands every node due by {@code now} to {@code expired}, as {@link #expire} does. */
    void purge(long now, List<ExpiryNode<K, V>> expired) {
        int from = expired.size();
        wheel.purge(now, expired);
        unchainFrom(from, expired);
    }

    /** Under the lock: the nodes in the table, live or expired. */
    int count() {
        return count;
    }

    /** From any thread, without the lock: the count as last written, perhaps a little stale. */
    int publishedCount() {
        return (int) COUNT.getOpaque(this);
    }

    /** Under the lock: a copy of the nodes, for iterating without the lock. */
    List<ExpiryNode<K, V>> snapshot() {
        List<ExpiryNode<K, V>> nodes = new ArrayList<>(count);
        for (ExpiryNode<K, V> head : table) {
            for (ExpiryNode<K, V> node = head; node != null; node = node.next()) {
                nodes.add(node);
            }
        }
        return nodes;
    }

    /** Under the lock: forgets every node. */
    void clear() {
        wheel.clear();
        table = newTable(INITIAL_BINS);
        COUNT.setOpaque(this, 0);
    }

    private void unchain(ExpiryNode<K, V> node, int hash) {
        ExpiryNode<K, V>[] bins = table;
        int index = hash & (bins.length - 1);
        ExpiryNode<K, V> at = bin(bins, index);
        if (at == node) {
            BINS.setRelease(bins, index, node.next());
        } else {
            while (at.next() != node) {
                at = at.next();
            }
            at.next(node.next());
        }
        COUNT.setOpaque(this, count - 1);
    }

    private void grow() {
        ExpiryNode<K, V>[] old = table;
        ExpiryNode<K, V>[] bins = newTable(old.length * 2);
        growths++;
        for (ExpiryNode<K, V> head : old) {
            for (ExpiryNode<K, V> node = head; node != null; ) {
                ExpiryNode<K, V> next = node.next();
                int index = hash(node.key) & (bins.length - 1);
                node.next(bins[index]);
                bins[index] = node;
                node = next;
            }
        }
        table = bins;
        growths++;
    }

    @SuppressWarnings("unchecked")
    private static <K, V> ExpiryNode<K, V> bin(ExpiryNode<K, V>[] bins, int index) {
        return (ExpiryNode<K, V>) BINS.getAcquire(bins, index);
    }

    @SuppressWarnings("unchecked")
    private static <K, V> ExpiryNode<K, V>[] newTable(int length) {
        return (ExpiryNode<K, V>[]) new ExpiryNode<?, ?>[length];
    }
}
