package dev.hourglass.queue;

import java.util.Arrays;

/**
 * Sorts a tick's timers by deadline when the tick comes due, for the sorted hashed wheel: stable,
 * by {@code deadline - time} as {@link Bucket#sortByDeadline} compares them, without allocating. A
 * list already in order is left as it is after one look; a short one is merge sorted; a long one
 * (a burst due at once, deadlines read from one clock nanoseconds apart in no order) is radix
 * sorted, least significant digit first, 11 bits a digit, on each deadline's distance from the
 * earliest, in as many passes as the spread of its deadlines needs: one or two for a burst read
 * within a few milliseconds, six at most. Each pass walks the list once in its order and deals the
 * nodes onto 2048 lists, where a merge sort would make about log2(n) passes of unpredictable
 * comparisons; the last pass also sets the back links, so the sorted list is not walked again.
 *
 * <p>Complexity: O(n) when sorted; else O(n log n) below {@link #RADIX_MIN} nodes and O(passes ×
 * (n + 2048)) from it on. Memory: two arrays of 2048 references, made at the first long sort.
 *
 * <p>Thread-safety: none; the wheel's thread only.
 *
 * @param <T> the payload type
 */
final class DeadlineSort<T> {

    /** The fewest nodes that are radix sorted: below it six passes could cost more than merging. */
    static final int RADIX_MIN = 2048;

    private static final int DIGIT_BITS = 11;
    private static final int DIGITS = 1 << DIGIT_BITS;

    /** Each digit's list during a pass: first and last node; empty between sorts. */
    private LinkedEntry<T>[] heads;

    private LinkedEntry<T>[] tails;

    /** Sorts the nodes of {@code bucket} by deadline relative to {@code time}; stable. */
    void sort(Bucket<T> bucket, long time) {
        int n = 0;
        boolean sorted = true;
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (LinkedEntry<T> e = bucket.first(); e != bucket; e = e.next) {
            long key = e.deadline - time;
            sorted &= key >= max;
            min = Math.min(min, key);
            max = Math.max(max, key);
            n++;
        }
        if (sorted) {
            return;
        }
        if (n < RADIX_MIN) {
            bucket.sortByDeadline(time);
            return;
        }
        if (heads == null) {
            heads = newDigits();
            tails = newDigits();
        }
        // Distances from the earliest, unsigned, grow with the keys; the spread needs this many bits.
        int bits = 64 - Long.numberOfLeadingZeros(max - min);
        long base = time + min;
        bucket.prev.next = null;
        LinkedEntry<T> head = bucket.first();
        for (int shift = 0; ; shift += DIGIT_BITS) {
            deal(head, base, shift);
            if (shift + DIGIT_BITS >= bits) {
                break;
            }
            head = join(null);
        }
        join(bucket);
        Arrays.fill(heads, null);
        Arrays.fill(tails, null);
    }

    /**
     * Deals a null-terminated chain onto the digit lists by the digit at {@code shift} of each
     * node's distance from {@code base}, in chain order, setting back links within each list.
     */
    private void deal(LinkedEntry<T> head, long base, int shift) {
        Arrays.fill(heads, null);
        for (LinkedEntry<T> e = head; e != null; e = e.next) {
            int digit = (int) ((e.deadline - base) >>> shift) & (DIGITS - 1);
            LinkedEntry<T> tail = tails[digit];
            if (heads[digit] == null) {
                heads[digit] = e;
                tail = null;
            } else {
                tail.next = e;
            }
            e.prev = tail;
            tails[digit] = e;
        }
    }

    /**
     * Joins the digit lists in digit order: into a null-terminated chain, returning its head, when
     * {@code bucket} is null; else into the bucket's ring, back links included.
     */
    private LinkedEntry<T> join(Bucket<T> bucket) {
        LinkedEntry<T> last = bucket;
        LinkedEntry<T> first = null;
        for (int digit = 0; digit < DIGITS; digit++) {
            LinkedEntry<T> head = heads[digit];
            if (head != null) {
                if (last == null) {
                    first = head;
                } else {
                    last.next = head;
                }
                head.prev = last;
                last = tails[digit];
            }
        }
        if (bucket == null) {
            last.next = null;
            return first;
        }
        last.next = bucket;
        bucket.prev = last;
        return bucket.next;
    }

    @SuppressWarnings("unchecked")
    private static <T> LinkedEntry<T>[] newDigits() {
        return (LinkedEntry<T>[]) new LinkedEntry<?>[DIGITS];
    }
}
