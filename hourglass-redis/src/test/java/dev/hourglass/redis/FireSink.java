package dev.hourglass.redis;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts the deliveries of timers 0..n-1 for {@link RedisBenchMain}: how many were delivered at
 * least once, how many deliveries in all, and each timer's lateness at its first delivery (wall
 * clock at delivery minus due time, ms; node and Redis share this machine's clock).
 *
 * <p>Complexity: O(1) per delivery. Ordering: not applicable. Thread-safety: {@link #fired} from
 * any thread; the readers after {@link #await} returned true.
 */
final class FireSink {
    private final AtomicIntegerArray seen;
    private final long[] lateness;
    private final AtomicInteger distinct = new AtomicInteger();
    private final LongAdder deliveries = new LongAdder();
    private final Object done = new Object();

    FireSink(int timers) {
        seen = new AtomicIntegerArray(timers);
        lateness = new long[timers];
    }

    /** Records a delivery of timer {@code index}, due at {@code dueMillis}. */
    void fired(int index, long dueMillis) {
        long now = System.currentTimeMillis();
        deliveries.increment();
        if (seen.compareAndSet(index, 0, 1)) {
            lateness[index] = now - dueMillis; // published by the increment below
            if (distinct.incrementAndGet() == lateness.length) {
                synchronized (done) {
                    done.notifyAll();
                }
            }
        }
    }

    /** Waits until every timer was delivered; returns false on timeout. */
    boolean await(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        synchronized (done) {
            long left;
            while (distinct.get() < lateness.length && (left = deadline - System.nanoTime()) > 0) {
                TimeUnit.NANOSECONDS.timedWait(done, left);
            }
        }
        return distinct.get() == lateness.length;
    }

    /** Returns how many timers were delivered at least once. */
    int distinct() {
        return distinct.get();
    }

    /** Returns how many deliveries there were, repeats included. */
    long deliveries() {
        return deliveries.sum();
    }

    /** Returns the lateness percentile {@code p} (0..100] of first deliveries, ms. */
    long latenessPercentile(double p) {
        long[] sorted = lateness.clone();
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(p / 100 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank))];
    }
}
