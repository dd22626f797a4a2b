package dev.hourglass.queue;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The contract plus what is particular to heaps: every entry in its slot and every parent before its
 * children after each operation, and an array that grows with a burst and shrinks back after it.
 */
abstract class AbstractHeapQueueTest extends TimerQueueContractTest {

    /** Children per node: the parent of slot i is (i - 1) / arity. */
    abstract int arity();

    @Override
    WithinTickOrder order() {
        return WithinTickOrder.EXACT;
    }

    private AbstractHeapQueue<Integer> newHeap(long startTime) {
        return (AbstractHeapQueue<Integer>) this.<Integer>newQueue(startTime);
    }

    /** Checks the slots and the heap order, the order read relative to the queue's time. */
    private void assertValid(AbstractHeapQueue<Integer> heap) {
        assertThat(heap.count).isEqualTo(heap.size());
        for (int i = 0; i < heap.count; i++) {
            HeapEntry<Integer> e = heap.entries[i];
            assertThat(e.index).as("slot of entry %d", i).isEqualTo(i);
            if (i > 0) {
                HeapEntry<Integer> p = heap.entries[(i - 1) / arity()];
                assertThat(heap.precedes(e.deadline, e.seq, p.deadline, p.seq))
                        .as("entry %d precedes its parent", i)
                        .isFalse();
            }
        }
        for (int i = heap.count; i < heap.capacity(); i++) {
            assertThat(heap.entries[i]).as("slot %d beyond the heap", i).isNull();
        }
    }

    @Test
    void everyOperationKeepsSlotsAndHeapOrder() {
        long start = Long.MAX_VALUE - 100_000;
        AbstractHeapQueue<Integer> heap = newHeap(start);
        SplittableRandom random = new SplittableRandom(7);
        List<TimerHandle<Integer>> handles = new ArrayList<>();
        long now = start;
        for (int step = 0; step < 30_000; step++) {
            int dice = random.nextInt(10);
            if (dice < 4 || handles.isEmpty()) {
                // Few distinct deadlines, so that ties on the deadline are common.
                handles.add(heap.schedule(now + random.nextLong(-50, 2_000) / 10 * 10, step));
            } else if (dice < 6) {
                TimerHandle<Integer> h = handles.remove(random.nextInt(handles.size()));
                heap.cancel(h);
            } else if (dice < 8) {
                TimerHandle<Integer> h = handles.get(random.nextInt(handles.size()));
                if (h.isPending()) {
                    heap.reschedule(h, now + random.nextLong(-50, 2_000) / 10 * 10);
                }
            } else {
                now += random.nextLong(0, 40);
                heap.poll(now, h -> {}, random.nextInt(1, 20));
            }
            handles.removeIf(h -> !h.isPending());
            assertValid(heap);
        }
    }

    @Test
    void growsWithABurstAndShrinksBackKeepingOrder() {
        AbstractHeapQueue<Integer> heap = newHeap(-1_000);
        int n = 100_000;
        SplittableRandom random = new SplittableRandom(3);
        long[] deadlines = new long[n];
        List<TimerHandle<Integer>> handles = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            deadlines[i] = -1_000 + random.nextLong(0, 20_000);
            handles.add(heap.schedule(deadlines[i], i));
        }
        assertThat(heap.capacity()).isEqualTo(Integer.highestOneBit(n) * 2);
        // Cancel a third from the middle of the heap, where a hole may need to sift either way.
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (i % 3 == 1) {
                assertThat(heap.cancel(handles.get(i))).isTrue();
            } else {
                expected.add(i);
            }
        }
        expected.sort(Comparator.<Integer>comparingLong(i -> deadlines[i]).thenComparingInt(i -> i));
        assertValid(heap);
        List<Integer> out = new ArrayList<>();
        int largest = heap.capacity();
        for (long now = -1_000; !heap.isEmpty(); now += 100) {
            heap.poll(now, h -> out.add(h.payload()), Integer.MAX_VALUE);
            assertThat(heap.capacity()).isLessThanOrEqualTo(largest);
            assertThat(heap.capacity())
                    .as("capacity while holding %d", heap.size())
                    .isLessThanOrEqualTo(Math.max(AbstractHeapQueue.INITIAL_CAPACITY, 4 * heap.size()));
            largest = heap.capacity();
        }
        assertThat(out).isEqualTo(expected);
        assertThat(heap.capacity()).isEqualTo(AbstractHeapQueue.INITIAL_CAPACITY);
        assertValid(heap);
    }

    @Test
    void clearLetsGoOfABurstsArray() {
        AbstractHeapQueue<Integer> heap = newHeap(0);
        for (int i = 0; i < 10_000; i++) {
            heap.schedule(i % 100, i);
        }
        assertThat(heap.clear(h -> {})).isEqualTo(10_000);
        assertThat(heap.capacity()).isEqualTo(AbstractHeapQueue.INITIAL_CAPACITY);
        assertValid(heap);
        heap.schedule(5, 1);
        heap.schedule(3, 2);
        List<Integer> out = new ArrayList<>();
        heap.poll(5, h -> out.add(h.payload()), Integer.MAX_VALUE);
        assertThat(out).containsExactly(2, 1);
    }

    @Test
    void aTimerReArmedAtTheShrinkBoundaryDoesNotResizeBackAndForth() {
        AbstractHeapQueue<Integer> heap = newHeap(0);
        // 33 entries grow the array to 64; after 16 deliveries the periodic timer moves the size
        // between 16, a quarter of 64, and 17 at every poll.
        for (int i = 0; i < 16; i++) {
            heap.schedule(0, i);
        }
        TimerHandle<Integer> periodic = heap.schedule(1, -1);
        for (int i = 0; i < 16; i++) {
            heap.schedule(1_000, 100 + i);
        }
        assertThat(heap.capacity()).isEqualTo(64);
        heap.poll(0, h -> {}, Integer.MAX_VALUE);
        assertThat(heap.size()).isEqualTo(17);
        assertThat(heap.capacity()).isEqualTo(64);
        Set<Integer> capacities = new TreeSet<>();
        for (long t = 1; t <= 100; t++) {
            heap.poll(
                    t,
                    h -> {
                        capacities.add(heap.capacity());
                        heap.reschedule(h, h.deadline() + 1);
                        capacities.add(heap.capacity());
                    },
                    Integer.MAX_VALUE);
        }
        assertThat(periodic.isPending()).isTrue();
        assertThat(capacities).containsExactly(32);
        assertValid(heap);
    }
}
