package dev.hourglass.bench.map;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Hears the expiries of one iteration of {@link ExpiringMapExpiryBenchmark}: counts them, and keeps
 * the largest lateness, the time from an entry's deadline (key {@code i} is due at {@code first + i
 * × step}) until the map reported it.
 *
 * <p>Complexity: O(1) per expiry. Ordering: n/a.
 *
 * <p>Thread-safety: {@link #expired} from one thread at a time (the map's timer or maintenance
 * thread); the results are read after {@link #await} returns.
 */
final class ExpiryLog {

    private final int size;
    private long first;
    private long step;
    private int heard;
    private long maxLateness;
    private CountDownLatch all;

    ExpiryLog(int size) {
        this.size = size;
    }

    /** Starts an iteration whose key {@code i} is due at {@code first + i * step}. */
    void start(long first, long step) {
        this.first = first;
        this.step = step;
        this.heard = 0;
        this.maxLateness = Long.MIN_VALUE;
        this.all = new CountDownLatch(1);
    }

    void expired(int key) {
        maxLateness = Math.max(maxLateness, System.nanoTime() - (first + key * step));
        if (++heard == size) {
            all.countDown();
        }
    }

    /**
     * Waits until every entry was reported.
     *
     * @throws IllegalStateException if that takes longer than {@code seconds}
     */
    void await(long seconds) throws InterruptedException {
        if (!all.await(seconds, TimeUnit.SECONDS)) {
            throw new IllegalStateException(heard + " of " + size + " expiries heard after " + seconds + " s");
        }
    }

    long maxLateness() {
        return maxLateness;
    }
}
