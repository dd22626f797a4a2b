package dev.hourglass.bench.driver;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * Records how late each timer ran (fire time minus deadline, from {@link System#nanoTime()}) in an
 * HdrHistogram with 3 significant digits. A timer that ran before its deadline records 0 and counts
 * as early (Kafka rounds to whole milliseconds).
 *
 * <p>Complexity: O(1) per record. Ordering: not applicable.
 *
 * <p>Thread-safety: records from one thread at a time (every timer here runs its tasks on a single
 * thread); another thread reads after {@link #await} has seen every record.
 */
final class LatenessRecorder {

    private final Histogram histogram = new Histogram(3);
    private long early;
    private volatile long fired;

    void record(long deadline) {
        long late = System.nanoTime() - deadline;
        if (late < 0) {
            early++;
            late = 0;
        }
        histogram.recordValue(late);
        fired = fired + 1; // one writer: a volatile write publishes the record to await()
    }

    /** Waits until {@code expected} timers have run; throws if they do not within {@code seconds}. */
    void await(long expected, long seconds) {
        long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (fired < expected) {
            if (System.nanoTime() - giveUp > 0) {
                throw new IllegalStateException(
                        "only " + fired + " of " + expected + " timers ran within " + seconds + " s");
            }
            LockSupport.parkNanos(100_000);
        }
    }

    void report(LatenessCounters counters) {
        counters.set(
                histogram.getValueAtPercentile(50),
                histogram.getValueAtPercentile(99),
                histogram.getValueAtPercentile(99.9),
                histogram.getMaxValue(),
                early);
    }

    /** A timer that records its own lateness. */
    static final class Probe extends Task {
        private final LatenessRecorder recorder;
        private final long deadline;

        Probe(LatenessRecorder recorder, long deadline) {
            this.recorder = recorder;
            this.deadline = deadline;
        }

        @Override
        public void run() {
            recorder.record(deadline);
        }
    }
}
