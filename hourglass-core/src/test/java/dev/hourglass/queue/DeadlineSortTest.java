package dev.hourglass.queue;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The sorted hashed wheel's sort of a tick's timers, checked against a stable sort of a list by
 * {@code deadline - time}: lists short and long (merge and radix sorted), in order and not, with
 * deadlines bunched within nanoseconds, spread over the whole signed range around a time near
 * {@code Long.MAX_VALUE}, and full of ties. Seeded ({@code -Dhourglass.seed}, see {@link ModelRun}).
 */
class DeadlineSortTest {

    /** A node whose payload is its place in the list before sorting. */
    private static Bucket<Integer> listOf(long[] deadlines) {
        Bucket<Integer> bucket = new Bucket<>(-1);
        for (int i = 0; i < deadlines.length; i++) {
            bucket.append(new ListEntry<>(null, i, deadlines[i]));
        }
        return bucket;
    }

    private static List<Integer> payloads(Bucket<Integer> bucket) {
        List<Integer> out = new ArrayList<>();
        LinkedEntry<Integer> before = bucket;
        for (LinkedEntry<Integer> e = bucket.first(); e != bucket; e = e.next) {
            assertThat(e.prev).as("back link").isSameAs(before);
            out.add(e.payload());
            before = e;
        }
        assertThat(bucket.prev).isSameAs(before);
        return out;
    }

    /** Insertion indexes in (deadline - time, insertion) order: what a stable sort gives. */
    private static List<Integer> expected(long[] deadlines, long time) {
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < deadlines.length; i++) {
            order.add(i);
        }
        order.sort(Comparator.comparingLong(i -> deadlines[i] - time)); // List.sort is stable
        return order;
    }

    @ParameterizedTest(name = "{0} nodes, {1}")
    @CsvSource({
        "0, JITTER", "1, JITTER", "2, JITTER", "100, JITTER", "2047, JITTER", "2048, JITTER", "50000, JITTER",
        "100, FULL", "2048, FULL", "50000, FULL", "2048, TIES", "50000, TIES", "50000, ASCENDING", "50000, DESCENDING"
    })
    void sortsStablyByDeadlineFromTheQueuesTime(int n, String shape) {
        long seed = ModelRun.seed(n * 31L + shape.hashCode());
        SplittableRandom random = new SplittableRandom(seed);
        long time = Long.MAX_VALUE - random.nextLong(1_000_000); // offsets cross into negative values
        long[] deadlines = new long[n];
        for (int i = 0; i < n; i++) {
            switch (shape) {
                case "JITTER": // a burst read from one clock, a few ns apart in no order
                    deadlines[i] = time + 1_000_000 + random.nextLong(100);
                    break;
                case "FULL": // anywhere within Long.MAX_VALUE of the time, before or after it
                    deadlines[i] = time + random.nextLong(Long.MIN_VALUE + 1, Long.MAX_VALUE);
                    break;
                case "TIES":
                    deadlines[i] = time + random.nextInt(3);
                    break;
                case "ASCENDING":
                    deadlines[i] = time + i / 3;
                    break;
                default:
                    deadlines[i] = time + n - i;
                    break;
            }
        }
        Bucket<Integer> bucket = listOf(deadlines);
        new DeadlineSort<Integer>().sort(bucket, time);
        assertThat(payloads(bucket)).as("seed " + seed).isEqualTo(expected(deadlines, time));
    }
}
