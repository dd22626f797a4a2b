package dev.hourglass.timer;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * A timer's counts, kept where they happen so that no caller pays a shared atomic for them:
 * schedules in a striped adder on the callers' threads, runs, expiries and cancellations by the
 * driver's thread alone (an ordered write, no read-modify-write), runs on an executor in a
 * striped adder, and the lateness histogram. Schedules refused by the pending limit and exceptions
 * sent to the handler happen off the hot path, on any thread: striped adders too.
 *
 * <p>Complexity: O(1) per count; a read sums the stripes. Ordering: not applicable.
 *
 * <p>Thread-safety: each count is written by the threads named above and read by any.
 */
final class Counters {

    final LatenessHistogram lateness = new LatenessHistogram();
    private final LongAdder scheduled = new LongAdder();
    private final LongAdder firedElsewhere = new LongAdder();
    private final AtomicLong fired = new AtomicLong();
    private final AtomicLong cancelled = new AtomicLong();
    private final LongAdder rejected = new LongAdder();
    private final LongAdder exceptions = new LongAdder();

    /** One-shots that started: with the cancellations, what no longer counts as pending. */
    private final AtomicLong expired = new AtomicLong();

    /** Callers' threads. */
    void scheduled() {
        scheduled.increment();
    }

    /** The driver's thread (or, after it stopped, the one thread that cancels a late node). */
    void fired() {
        fired.lazySet(fired.get() + 1);
    }

    void expired() {
        expired.lazySet(expired.get() + 1);
    }

    void cancelled() {
        cancelled.lazySet(cancelled.get() + 1);
    }

    /** After the driver stopped: callers and the driver's last look may cancel at once. */
    void cancelledLate() {
        cancelled.incrementAndGet();
    }

    /** Callers' threads, on a schedule refused by the pending limit. */
    void rejected() {
        rejected.increment();
    }

    /** Any thread that hands an exception to the exception handler. */
    void exception() {
        exceptions.increment();
    }

    /** Executors' threads. */
    void firedElsewhere() {
        firedElsewhere.increment();
    }

    /** How many timeouts are pending as far as the driver knows, plus those handed over since. */
    long pending() {
        return Math.max(0, scheduled.sum() - expired.get() - cancelled.get());
    }

    TimerStats snapshot() {
        long pending = pending();
        return new TimerStats(
                scheduled.sum(),
                fired.get() + firedElsewhere.sum(),
                cancelled.get(),
                pending,
                rejected.sum(),
                exceptions.sum(),
                lateness);
    }
}
