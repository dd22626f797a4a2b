package dev.hourglass.timer;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * How late tasks ran, in nanoseconds, in log-linear buckets: exact below 16 ns, then 16 buckets per
 * power of two, so a percentile is within 6.25% of the true value. Recording is lock-free and
 * allocation-free from any thread (tasks may run on an executor's threads), or cheaper still, with
 * plain ordered writes, when a single thread records (the driver's, running its own tasks).
 *
 * <p>Complexity: record O(1); a percentile O(buckets) = O(976).
 *
 * <p>Thread-safety: {@link #record} from any thread, or {@link #recordAlone} from one thread
 * only; a snapshot read while others record may miss their latest values.
 */
final class LatenessHistogram {

    private static final int SUB_BITS = 4;
    private static final int SUB = 1 << SUB_BITS;
    private static final int BUCKETS = (64 - SUB_BITS + 1) * SUB;

    private final AtomicLongArray counts = new AtomicLongArray(BUCKETS);
    private final AtomicLong max = new AtomicLong();

    /**
     * Records one lateness from the one thread that records into this histogram, with no atomic
     * read-modify-write; a negative one counts as 0. Never mixed with {@link #record} on one
     * histogram.
     */
    void recordAlone(long nanos) {
        long value = Math.max(0, nanos);
        int bucket = bucket(value);
        counts.lazySet(bucket, counts.get(bucket) + 1);
        if (value > max.get()) {
            max.lazySet(value);
        }
    }

    /** Records one lateness; a negative one (impossible unless a clock misbehaves) counts as 0. */
    void record(long nanos) {
        long value = Math.max(0, nanos);
        counts.incrementAndGet(bucket(value));
        long seen = max.get();
        while (value > seen && !max.compareAndSet(seen, value)) {
            seen = max.get();
        }
    }

    static int bucket(long value) {
        if (value < SUB) {
            return (int) value;
        }
        int magnitude = 63 - Long.numberOfLeadingZeros(value);
        int sub = (int) (value >>> (magnitude - SUB_BITS)) & (SUB - 1);
        return (magnitude - SUB_BITS + 1) * SUB + sub;
    }

    /** The largest value that falls into {@code bucket}. */
    static long upperBound(int bucket) {
        if (bucket < SUB) {
            return bucket;
        }
        int magnitude = bucket / SUB + SUB_BITS - 1;
        long sub = bucket % SUB;
        long lower = (1L << magnitude) | (sub << (magnitude - SUB_BITS));
        return lower + (1L << (magnitude - SUB_BITS)) - 1;
    }

    /** Copies the counts into {@code out} (length {@link #bucketCount()}) and returns the total. */
    long snapshot(long[] out) {
        long total = 0;
        for (int i = 0; i < BUCKETS; i++) {
            out[i] = counts.get(i);
            total += out[i];
        }
        return total;
    }

    static int bucketCount() {
        return BUCKETS;
    }

    long max() {
        return max.get();
    }

    /** The smallest recorded bucket bound at or below which a fraction {@code p} of values lie. */
    static long percentile(long[] counts, long total, double p, long max) {
        if (total == 0) {
            return 0;
        }
        long rank = Math.max(1, (long) Math.ceil(p * total));
        long seen = 0;
        for (int i = 0; i < counts.length; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return Math.min(upperBound(i), max);
            }
        }
        return max;
    }
}
