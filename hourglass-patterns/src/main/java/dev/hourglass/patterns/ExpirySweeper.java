package dev.hourglass.patterns;

import dev.hourglass.time.NanoClock;
import dev.hourglass.timer.Timer;
import java.util.ArrayList;
import java.util.List;

/**
 * The timer's side of an {@link ExpiringMap}: the bounded passes that purge expired entries nobody
 * reads, the one timeout that runs them ({@link SweepArming}), and the map's closed state, since
 * closing the map is what ends its passes. A pass goes through every stripe once, starting with the
 * one after the stripe where the last pass ran out of budget, hands at most {@code
 * maxExpiriesPerPass} due entries to the listener, and arms the next pass for the earliest time a
 * stripe has work (at once while more are due).
 *
 * <p>Complexity: a pass O(stripes + m) for the m entries it handles. Ordering: per stripe, the
 * wheel's.
 *
 * <p>Thread-safety: every method from any thread, {@link #armFor} holding a stripe's lock; a pass
 * holds one stripe's lock at a time.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
final class ExpirySweeper<K, V> {

    private final NanoClock clock;
    private final ExpirySegment<K, V>[] segments;
    private final int maxExpiriesPerPass;
    /** The starting size of a pass's list of expired entries. */
    private final int passListCapacity;

    private final ExpiryNotices<K, V> notices;
    private final SweepArming arming;

    /** The stripe the next pass starts with: the one after the stripe where the last pass stopped. */
    private volatile int nextSweepStart;

    private volatile boolean closed;

    ExpirySweeper(
            Timer timer,
            NanoClock clock,
            ExpirySegment<K, V>[] segments,
            int maxExpiriesPerPass,
            int passListCapacity,
            ExpiryNotices<K, V> notices) {
        this.clock = clock;
        this.segments = segments;
        this.maxExpiriesPerPass = maxExpiriesPerPass;
        this.passListCapacity = passListCapacity;
        this.notices = notices;
        this.arming = new SweepArming(timer, this::sweep);
    }

    /**
     * Makes sure a pass runs at {@code at} or earlier; called with a stripe's lock held, before the
     * entry due then is linked (see {@link SweepArming}).
     *
     * @throws IllegalStateException if the timer is closed
     * @throws java.util.concurrent.RejectedExecutionException if the timer's pending limit is reached
     */
    void armFor(long at, long now) {
        arming.armFor(at, now);
    }

    boolean isClosed() {
        return closed;
    }

    /** Ends the passes and forgets every entry; a second call does nothing. */
    void close() {
        if (closed) {
            return;
        }
        closed = true;
        clear();
    }

    /** Cancels the pending pass and forgets every entry without reporting any. */
    void clear() {
        arming.disarm();
        for (ExpirySegment<K, V> segment : segments) {
            segment.lock.lock();
            try {
                segment.clear();
            } finally {
                segment.lock.unlock();
            }
        }
    }

    /** The timer's task: one bounded pass, then the next pass armed before anyone hears. */
    private void sweep() {
        arming.sweepStarted();
        if (closed) {
            return;
        }
        List<ExpiryNode<K, V>> expired = new ArrayList<>(passListCapacity);
        long now = clock.nanoTime();
        int budget = maxExpiriesPerPass;
        int start = nextSweepStart;
        boolean due = false;
        long next = 0;
        for (int i = 0; i < segments.length; i++) {
            ExpirySegment<K, V> segment = segments[(start + i) & (segments.length - 1)];
            segment.lock.lock();
            try {
                // With no budget left this only advances the stripe's wheel, so that an entry put
                // before its next pass is filed from the current tick, not far up the wheel behind
                // a cascade.
                int handled = segment.expire(now, budget, expired);
                budget -= handled;
                if (handled > 0 && budget == 0) {
                    // The next pass starts with the next stripe: one stripe's big cascade must not
                    // take every pass's budget while the others' due entries wait.
                    nextSweepStart = (start + i + 1) & (segments.length - 1);
                }
                if (!segment.wheel.isIdle()) {
                    long at = segment.wheel.nextDue();
                    if (!due || at - next < 0) {
                        next = at;
                        due = true;
                    }
                }
            } finally {
                segment.lock.unlock();
            }
        }
        if (due && !closed) {
            arming.armFor(next, now);
        }
        notices.announce(expired);
    }
}
