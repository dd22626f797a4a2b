package dev.hourglass.patterns;

import java.util.List;

/**
 * The expiry index of one segment of an {@link ExpiringMap}: a hierarchical timing wheel whose
 * nodes are the map's own {@link ExpiryNode}s, linked into doubly-linked rings, so filing, moving
 * and removing an entry are O(1) and allocate nothing.
 *
 * <p>Layout: {@value #LEVELS} levels of {@value #SLOTS} buckets; a bucket of level {@code i} spans
 * {@code 64^i} ticks, so the levels together cover every deadline a TTL can reach (2^63 ticks). An
 * entry {@code d} ticks ahead of the wheel's current tick is filed in level {@code
 * floor(log64(d))}, in the bucket of its deadline's tick at that level. When the wheel advances,
 * the buckets it passes are spliced whole (O(1)) onto two rings: the bottom level's onto the due
 * ring, the higher levels' onto the cascade ring; a {@link #poll} then takes up to its limit of
 * nodes, from the due ring first (every {@value #CASCADE_SHARE}th from the cascade ring while it
 * holds nodes), each either expired (its exact deadline has come) or filed again nearer the bottom.
 * So a big cascade (a million entries put with one TTL move down together) does not hold back the
 * entries its ticks bring due; a cascading node already due waits for its turn in the cascade ring,
 * which holds its bucket's nodes in the order they were filed. A node whose deadline moved later
 * stays where it is and is filed again when its bucket comes up, so extending an entry costs the
 * wheel nothing; a deadline moved earlier moves the node at once. Bucket sentinels are made on
 * first use.
 *
 * <p>Promptness: a bucket of tick {@code t} holds the deadlines after the end of tick {@code t - 1}
 * up to the end of tick {@code t}, and a poll advances to the last tick boundary at or before its
 * {@code now}: it passes only buckets whose every deadline has come, so an unbounded poll hands out
 * every node whose tick has ended (at most one tick after its deadline) and no node is walked twice
 * while its tick runs; {@link #nextDue} names a time at most one tick after the earliest deadline.
 * Never early: a node is handed out only when {@code now - deadline >= 0}.
 *
 * <p>Complexity: {@link #file}, {@link #remove} O(1); {@link #poll} O(levels × slots) to advance
 * plus O(1) per node handled; {@link #nextDue} O(levels) amortised. Ordering: by tick, except that
 * a node due while it waits in the cascade ring may come after the bottom level's due nodes, later
 * ticks' included; within a tick, not specified.
 *
 * <p>Thread-safety: none; the segment's lock guards it.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
final class ExpiryWheel<K, V> {

    static final int LEVELS = 11;
    static final int SLOTS = 64;
    private static final int BITS = 6;
    private static final int MASK = SLOTS - 1;

    /** One node in this many a poll takes is the cascade ring's, when both rings hold nodes. */
    static final int CASCADE_SHARE = 4;

    private final long origin;
    private final long tick;

    @SuppressWarnings("unchecked")
    private final ExpiryNode<K, V>[][] buckets = (ExpiryNode<K, V>[][]) new ExpiryNode<?, ?>[LEVELS][];

    /** Per level, a bit per bucket that may hold nodes; a clear bit means surely empty. */
    private final long[] occupied = new long[LEVELS];

    /**
     * Nodes of bottom-level buckets the wheel has passed: due or moved later (or, after a purge, due
     * later in the running tick).
     */
    private final ExpiryNode<K, V> due = ExpiryNode.sentinel();

    /** Nodes of higher-level buckets the wheel has passed, waiting to be filed again or expired. */
    private final ExpiryNode<K, V> cascading = ExpiryNode.sentinel();

    /** The current tick, counted from {@link #origin}. */
    private long current;

    /** Nodes taken off the passed rings so far (wrapping), to give the cascade its share. */
    private int handledTotal;

    ExpiryWheel(long origin, long tickNanos) {
        this.origin = origin;
        this.tick = tickNanos;
    }

    /** Files a node that is in no bucket, by its deadline. */
    void file(ExpiryNode<K, V> node) {
        long at = tickAtOrAfter(node.deadline());
        long ahead = at - current;
        int level;
        int slot;
        if (ahead <= 0) {
            level = 0;
            slot = (int) current & MASK;
        } else {
            level = (63 - Long.numberOfLeadingZeros(ahead)) / BITS;
            slot = (int) (at >>> (BITS * level)) & MASK;
        }
        link(bucket(level, slot), node);
        occupied[level] |= 1L << slot;
    }

    /** Takes a node out of its bucket or a passed ring; a node in none is left alone. */
    void remove(ExpiryNode<K, V> node) {
        if (node.wheelNext != null) {
            unlink(node);
        }
    }

    /**
     * Gives a filed node a new deadline: an earlier one moves it now, a later one is left for the
     * node's bucket to find.
     */
    void moveDeadline(ExpiryNode<K, V> node, long deadline) {
        long old = node.deadline();
        node.deadline(deadline);
        if (deadline - old < 0 && node.wheelNext != null) {
            unlink(node);
            file(node);
        }
    }

    /**
     * Advances to {@code now} and handles up to {@code limit} nodes: those whose deadline has come
     * are taken out of the wheel and added to {@code expired}, the others are filed again.
     *
     * @return the number of nodes handled, expired or filed again
     */
    int poll(long now, int limit, List<ExpiryNode<K, V>> expired) {
        // Up to the last tick boundary at or before now: a passed bucket holds only nodes due (or
        // moved later), so a poll within a tick does not walk the same bucket again and again.
        return handle(tickAtOrBefore(now), now, limit, expired);
    }

    /**
     * Hands out every node due by {@code now}, those of the tick still running too (whose bucket it
     * walks, filing its nodes not yet due again): for an exact count, not for every pass.
     */
    void purge(long now, List<ExpiryNode<K, V>> expired) {
        handle(tickAtOrAfter(now), now, Integer.MAX_VALUE, expired);
    }

    private int handle(long to, long now, int limit, List<ExpiryNode<K, V>> expired) {
        passTo(Math.max(current, to));
        int handled = 0;
        while (handled < limit) {
            ExpiryNode<K, V> node = nextPassed();
            if (node == null) {
                break;
            }
            unlink(node);
            handled++;
            if (now - node.deadline() >= 0) {
                expired.add(node);
            } else {
                file(node);
            }
        }
        return handled;
    }

    /**
     * Returns when a poll next has work, for a wheel that is not {@link #isIdle idle}: the tick
     * boundary when the earliest bucket of the bottom level is all due, or the moment a higher
     * level's bucket must move down, whichever comes first; a time already passed while a passed
     * ring holds nodes.
     */
    long nextDue() {
        if (hasPassed()) {
            return origin + (current - 1) * tick;
        }
        long best = 0;
        boolean found = false;
        for (int level = 0; level < LEVELS; level++) {
            int first = level == 0 ? (int) current & MASK : ((int) (current >>> (BITS * level)) + 1) & MASK;
            int slot = firstOccupied(level, first);
            if (slot < 0) {
                continue;
            }
            long due;
            if (level == 0) {
                due = origin + (current + ((slot - first) & MASK)) * tick;
            } else {
                long base = current >>> (BITS * level);
                long index = base + 1 + ((slot - first) & MASK);
                due = origin + (index << (BITS * level)) * tick;
            }
            if (!found || due - best < 0) {
                best = due;
                found = true;
            }
        }
        return best;
    }

    /** Tells whether no node is filed or passed, clearing the marks of buckets found empty. */
    boolean isIdle() {
        if (hasPassed()) {
            return false;
        }
        for (int level = 0; level < LEVELS; level++) {
            if (firstOccupied(level, 0) >= 0) {
                return false;
            }
        }
        return true;
    }

    /** Forgets every node, leaving each in no bucket. */
    void clear() {
        for (int level = 0; level < LEVELS; level++) {
            if (buckets[level] != null) {
                for (ExpiryNode<K, V> sentinel : buckets[level]) {
                    if (sentinel != null) {
                        drop(sentinel);
                    }
                }
            }
            occupied[level] = 0;
        }
        drop(due);
        drop(cascading);
    }

    /**
     * The next node a poll handles: the due ring's, but every {@value #CASCADE_SHARE}th the cascade
     * ring's while it holds nodes, so that a steady stream of due nodes cannot hold a cascade back
     * for ever; null when both are empty.
     */
    private ExpiryNode<K, V> nextPassed() {
        boolean cascadeTurn = ++handledTotal % CASCADE_SHARE == 0;
        ExpiryNode<K, V> first = cascadeTurn ? cascading : due;
        ExpiryNode<K, V> node = first.wheelNext;
        if (node != first) {
            return node;
        }
        ExpiryNode<K, V> second = cascadeTurn ? due : cascading;
        node = second.wheelNext;
        return node != second ? node : null;
    }

    /** Tells whether a passed ring holds nodes a poll has yet to handle. */
    private boolean hasPassed() {
        return due.wheelNext != due || cascading.wheelNext != cascading;
    }

    private void drop(ExpiryNode<K, V> sentinel) {
        for (ExpiryNode<K, V> node = sentinel.wheelNext; node != sentinel; ) {
            ExpiryNode<K, V> next = node.wheelNext;
            node.wheelPrev = null;
            node.wheelNext = null;
            node = next;
        }
        sentinel.wheelPrev = sentinel;
        sentinel.wheelNext = sentinel;
    }

    /** Moves the buckets the wheel passes on its way to tick {@code to} onto the passed rings. */
    private void passTo(long to) {
        long from = current;
        current = to;
        // Level 0 from the old current bucket, which may hold nodes due later in its tick.
        spliceRange(0, from, to);
        for (int level = 1; level < LEVELS; level++) {
            long a = from >>> (BITS * level);
            long b = to >>> (BITS * level);
            if (a == b) {
                break;
            }
            spliceRange(level, a + 1, b);
        }
    }

    private void spliceRange(int level, long first, long last) {
        ExpiryNode<K, V> to = level == 0 ? due : cascading;
        long bits = occupied[level];
        if (bits == 0) {
            return;
        }
        long count = Math.min(last - first + 1, SLOTS);
        for (long k = 0; k < count; k++) {
            int slot = (int) (first + k) & MASK;
            if ((bits & (1L << slot)) != 0) {
                splice(buckets[level][slot], to);
                occupied[level] &= ~(1L << slot);
            }
        }
    }

    /** Moves a bucket's whole ring to the end of the ring {@code to}. */
    private void splice(ExpiryNode<K, V> sentinel, ExpiryNode<K, V> to) {
        ExpiryNode<K, V> head = sentinel.wheelNext;
        if (head == sentinel) {
            return;
        }
        ExpiryNode<K, V> tail = sentinel.wheelPrev;
        ExpiryNode<K, V> last = to.wheelPrev;
        last.wheelNext = head;
        head.wheelPrev = last;
        tail.wheelNext = to;
        to.wheelPrev = tail;
        sentinel.wheelNext = sentinel;
        sentinel.wheelPrev = sentinel;
    }

    /** The first bucket of {@code level} in ring order from {@code start} that holds a node, or -1. */
    private int firstOccupied(int level, int start) {
        while (occupied[level] != 0) {
            int slot = (start + Long.numberOfTrailingZeros(Long.rotateRight(occupied[level], start))) & MASK;
            ExpiryNode<K, V> sentinel = buckets[level][slot];
            if (sentinel.wheelNext != sentinel) {
                return slot;
            }
            occupied[level] &= ~(1L << slot);
        }
        return -1;
    }

    private ExpiryNode<K, V> bucket(int level, int slot) {
        ExpiryNode<K, V>[] row = buckets[level];
        if (row == null) {
            @SuppressWarnings("unchecked")
            ExpiryNode<K, V>[] made = (ExpiryNode<K, V>[]) new ExpiryNode<?, ?>[SLOTS];
            row = made;
            buckets[level] = row;
        }
        ExpiryNode<K, V> sentinel = row[slot];
        if (sentinel == null) {
            sentinel = ExpiryNode.sentinel();
            row[slot] = sentinel;
        }
        return sentinel;
    }

    /**
     * The first tick boundary at or after {@code time}: a bucket of tick {@code t} holds deadlines
     * after the end of tick {@code t - 1} up to the end of tick {@code t}, so every node of a
     * bucket is due when the wheel reaches the bucket, and a deadline on a boundary is met exactly.
     */
    private long tickAtOrAfter(long time) {
        return -Math.floorDiv(origin - time, tick);
    }

    /** The last tick boundary at or before {@code time}. */
    private long tickAtOrBefore(long time) {
        return Math.floorDiv(time - origin, tick);
    }

    /** The time a poll finds {@code deadline} due, at most one tick after it. */
    long dueTime(long deadline) {
        return origin + tickAtOrAfter(deadline) * tick;
    }

    private static <K, V> void link(ExpiryNode<K, V> sentinel, ExpiryNode<K, V> node) {
        ExpiryNode<K, V> last = sentinel.wheelPrev;
        node.wheelPrev = last;
        node.wheelNext = sentinel;
        last.wheelNext = node;
        sentinel.wheelPrev = node;
    }

    private static <K, V> void unlink(ExpiryNode<K, V> node) {
        node.wheelPrev.wheelNext = node.wheelNext;
        node.wheelNext.wheelPrev = node.wheelPrev;
        node.wheelPrev = null;
        node.wheelNext = null;
    }
}
