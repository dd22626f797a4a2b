package dev.hourglass.queue;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class QuaternaryHeapQueueTest extends AbstractHeapQueueTest {
    @Override
    <T> TimerQueue<T> newQueue(long startTime) {
        return TimerQueues.quaternaryHeap(startTime);
    }

    @Override
    int arity() {
        return 4;
    }

    @Test
    void cancelInOneSubtreeMovesTheLastEntryUp() {
        TimerQueue<Integer> queue = newQueue(0);
        // Inserted in heap order: root 1, its children 50, 2, 60, 61, the children of 50 in slots
        // 5 to 8, and 3 in slot 9 under 2.
        List<TimerHandle<Integer>> h = new ArrayList<>();
        for (long d : new long[] {1, 50, 2, 60, 61, 51, 52, 53, 54, 3}) {
            h.add(queue.schedule(d, (int) d));
        }
        // The last entry, 3, fills the hole under 50 and must rise above it.
        queue.cancel(h.get(5));
        List<Integer> out = new ArrayList<>();
        queue.poll(100, t -> out.add(t.payload()), Integer.MAX_VALUE);
        assertThat(out).containsExactly(1, 2, 3, 50, 52, 53, 54, 60, 61);
    }

    @Test
    void siblingsWithEqualDeadlinesGoInInsertionOrder() {
        TimerQueue<Integer> queue = newQueue(0);
        List<TimerHandle<Integer>> h = new ArrayList<>();
        for (int i = 0; i < 21; i++) {
            h.add(queue.schedule(7, i));
        }
        // Rescheduling to the same deadline makes them the newest, so they go last.
        queue.reschedule(h.get(3), 7);
        queue.reschedule(h.get(0), 7);
        List<Integer> out = new ArrayList<>();
        queue.poll(7, t -> out.add(t.payload()), Integer.MAX_VALUE);
        List<Integer> expected = new ArrayList<>();
        for (int i = 1; i < 21; i++) {
            if (i != 3) {
                expected.add(i);
            }
        }
        expected.add(3);
        expected.add(0);
        assertThat(out).isEqualTo(expected);
    }
}
