package dev.hourglass.queue;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BinaryHeapQueueTest extends AbstractHeapQueueTest {
    @Override
    <T> TimerQueue<T> newQueue(long startTime) {
        return TimerQueues.binaryHeap(startTime);
    }

    @Override
    int arity() {
        return 2;
    }

    @Test
    void cancelInOneSubtreeMovesTheLastEntryUp() {
        TimerQueue<Integer> queue = newQueue(0);
        // Inserted in heap order, so the slots are exactly [1, 10, 2, 11, 12, 3, 4].
        List<TimerHandle<Integer>> h = new ArrayList<>();
        for (long d : new long[] {1, 10, 2, 11, 12, 3, 4}) {
            h.add(queue.schedule(d, (int) d));
        }
        // The last entry, 4, fills the hole under 10 and must rise above it.
        queue.cancel(h.get(3));
        List<Integer> out = new ArrayList<>();
        queue.poll(100, t -> out.add(t.payload()), Integer.MAX_VALUE);
        assertThat(out).containsExactly(1, 2, 3, 4, 10, 12);
    }
}
