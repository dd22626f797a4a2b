package dev.hourglass.queue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Timers in a skip list (Pugh) ordered by (deadline, insertion), doubly linked at every level so
 * that cancel unlinks a node without searching for its predecessors. Each level is a ring through
 * the queue's head, so linking and unlinking need no null checks. Levels come from a per-queue
 * generator with a fixed seed, so a sequence of operations always builds the same list.
 *
 * <p>Complexity: schedule and reschedule O(log n) expected; cancel O(level of the node), expected
 * O(1) (4/3 levels on average); next deadline O(1); each delivered timer is the first node,
 * unlinked in O(level), expected O(1). Lowering the head's top level when it empties adds amortised
 * O(1). Levels are drawn independently of deadlines, so the expectation holds for any arrival
 * order not crafted against the fixed seed.
 *
 * <p>Order: exact, by (deadline, insertion); a timer goes after every timer with an equal
 * deadline.
 *
 * <p>Thread-safety: none; confine to one thread.
 */
final class SkipListQueue<T> extends AbstractTimerQueue<T, SkipNode<T>> {

    /**
     * Levels a node may have. With p = 1/4 a list of n nodes uses about log4(n) levels, and the
     * size is bounded by Integer.MAX_VALUE, about 4^15.5, so 16 levels cover every possible queue;
     * the cap only folds the draws rarer than 4^-15 into the top level.
     */
    static final int MAX_LEVEL = 16;

    /** Fixed, so that runs are reproducible; any odd-looking constant does (digits of pi). */
    private static final long SEED = 0x243F_6A88_85A3_08D3L;

    /** The start and end of every level's ring; it carries no timer. */
    private final SkipNode<T> head = new SkipNode<>(null, null, 0, MAX_LEVEL);

    /** Levels in use: the head links only to itself at every level from here up. */
    private int levels = 1;

    private long random = SEED;

    SkipListQueue(long startTime) {
        super(startTime);
        emptyHead();
    }

    private void emptyHead() {
        for (int i = 0; i < MAX_LEVEL; i++) {
            head.next[i] = head;
            head.prev[i] = head;
        }
        levels = 1;
    }

    @Override
    SkipNode<T> newEntry(T payload, long deadline) {
        return new SkipNode<>(this, payload, deadline, randomLevel());
    }

    /**
     * Draws a level with P(level > k) = 4^-k. p = 1/4 rather than 1/2: a node averages 4/3 levels
     * instead of 2, which halves the links beyond level 0 (and there are two per level), while a
     * search still makes about 2 log2(n) comparisons either way.
     */
    private int randomLevel() {
        // SplitMix64: a Weyl sequence through a bit mixer; each pair of low zero bits is one more level.
        long z = random += 0x9E37_79B9_7F4A_7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58_476D_1CE4_E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D0_49BB_1331_11EBL;
        z ^= z >>> 31;
        return Math.min(MAX_LEVEL, 1 + (Long.numberOfTrailingZeros(z) >>> 1));
    }

    @Override
    void insert(SkipNode<T> entry) {
        int level = entry.level();
        int top = Math.max(levels, level);
        SkipNode<T> x = head;
        // One descent links the node at each of its levels on the way down, so no update array is
        // needed; walking past equal deadlines puts it after them.
        for (int i = top - 1; i >= 0; i--) {
            SkipNode<T> n = x.next[i];
            while (n != head && !before(entry.deadline, n.deadline)) {
                x = n;
                n = x.next[i];
            }
            if (i < level) {
                entry.prev[i] = x;
                entry.next[i] = n;
                x.next[i] = entry;
                n.prev[i] = entry;
            }
        }
        levels = top;
    }

    @Override
    void remove(SkipNode<T> entry) {
        SkipNode<T>[] next = entry.next;
        SkipNode<T>[] prev = entry.prev;
        for (int i = 0; i < next.length; i++) {
            prev[i].next[i] = next[i];
            next[i].prev[i] = prev[i];
            next[i] = null;
            prev[i] = null;
        }
        while (levels > 1 && head.next[levels - 1] == head) {
            levels--;
        }
    }

    @Override
    int expire(long now, Consumer<? super TimerHandle<T>> consumer, int limit) {
        int count = 0;
        while (count < limit) {
            SkipNode<T> first = head.next[0];
            if (first == head || first.deadline - now > 0) {
                break;
            }
            remove(first);
            deliver(first, consumer);
            count++;
        }
        return count;
    }

    @Override
    long earliest() {
        return head.next[0].deadline;
    }

    @Override
    void removeAll(Consumer<? super SkipNode<T>> sink) {
        SkipNode<T> e = head.next[0];
        emptyHead();
        while (e != head) {
            SkipNode<T> n = e.next[0];
            for (int i = 0; i < e.level(); i++) {
                e.next[i] = null;
                e.prev[i] = null;
            }
            sink.accept(e);
            e = n;
        }
    }

    /**
     * Checks that every level is a ring, in order, with matching back links, holding exactly the
     * nodes of level 0 tall enough for it, and that {@code levels} is the height in use; throws
     * {@link AssertionError} on the first violation. For tests, O(n * MAX_LEVEL).
     */
    void checkInvariants() {
        List<SkipNode<T>> bottom = new ArrayList<>();
        SkipNode<T> previous = head;
        for (SkipNode<T> x = head.next[0]; x != head; x = x.next[0]) {
            if (!x.isPending()) {
                throw broken("a linked node is pending: " + x);
            }
            if (x.level() < 1 || x.level() > MAX_LEVEL) {
                throw broken("level within 1.." + MAX_LEVEL + ": " + x.level());
            }
            if (previous != head && before(x.deadline, previous.deadline)) {
                throw broken("in order: " + previous + ", " + x);
            }
            bottom.add(x);
            previous = x;
        }
        if (bottom.size() != size) {
            throw broken("level 0 holds size() nodes: " + bottom.size() + " != " + size);
        }
        int tallest = 1;
        for (int i = 0; i < MAX_LEVEL; i++) {
            SkipNode<T> x = head;
            for (SkipNode<T> expected : bottom) {
                if (expected.level() > i) {
                    if (x.next[i] != expected) {
                        throw broken("level " + i + " links " + expected);
                    }
                    if (expected.prev[i] != x) {
                        throw broken("level " + i + " back link of " + expected);
                    }
                    x = expected;
                    tallest = i + 1;
                }
            }
            if (x.next[i] != head || head.prev[i] != x) {
                throw broken("level " + i + " ends at the head");
            }
        }
        if (levels != tallest) {
            throw broken("levels in use: " + levels + " != " + tallest);
        }
    }

    private static AssertionError broken(String invariant) {
        return new AssertionError("skip list invariant broken: " + invariant);
    }
}
