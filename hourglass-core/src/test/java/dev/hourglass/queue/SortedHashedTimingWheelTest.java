package dev.hourglass.queue;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SortedHashedTimingWheelTest extends HashedWheelContractTest {
    @Override
    <T> TimerQueue<T> newWheel(long startTime, long tickNanos, int slots) {
        return TimerQueues.sortedHashedWheel(startTime, tickNanos, slots);
    }

    @Override
    WithinTickOrder order() {
        return WithinTickOrder.DEADLINE;
    }

    @Test
    void withinATickByDeadlineThenInsertionEvenForLateJoiners() {
        TimerQueue<Integer> queue = TimerQueues.sortedHashedWheel(0, 10, 4);
        // 22..30 round up to tick 3; 67 and 107 share slot 3 in later rotations.
        TimerHandle<Integer> moved = queue.schedule(22, 122);
        queue.schedule(30, 30);
        queue.schedule(107, 107);
        queue.schedule(22, 22);
        queue.schedule(67, 67);
        queue.schedule(27, 27);
        queue.reschedule(moved, 22);
        List<Integer> out = new ArrayList<>();
        queue.poll(
                30,
                h -> {
                    out.add(h.payload());
                    if (h.payload() == 22) {
                        // Overdue: joins tick 3 and sorts by its deadline among what is left.
                        queue.schedule(5, 5);
                        queue.schedule(28, 28);
                    }
                },
                Integer.MAX_VALUE);
        assertThat(out).containsExactly(22, 5, 122, 27, 28, 30);
        assertThat(queue.nextDeadline()).isEqualTo(70);
    }

    @Test
    void aLimitStopsInsideASlotAndTheNextPollGoesOnFromTheHead() {
        TimerQueue<Integer> queue = TimerQueues.sortedHashedWheel(0, 10, 4);
        for (int i = 9; i >= 1; i--) {
            queue.schedule(10 + i, i);
        }
        queue.schedule(50, 50);
        List<Integer> out = new ArrayList<>();
        assertThat(queue.poll(60, h -> out.add(h.payload()), 4)).isEqualTo(4);
        assertThat(queue.nextDeadline()).isEqualTo(20);
        assertThat(queue.poll(60, h -> out.add(h.payload()), Integer.MAX_VALUE)).isEqualTo(6);
        assertThat(out).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 50);
    }

    /**
     * A tick's timers scheduled in no order of deadline, as a timer thread sees deadlines read from
     * a clock a few ns apart: each used to walk the timers of its tick with later deadlines, so a
     * million due at once never finished firing in a benchmark. Now the tick is sorted once when it
     * comes due; 400,000 in descending order would take minutes the old way.
     */
    @Test
    @org.junit.jupiter.api.Timeout(value = 60, threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
    void aTickOfTimersInDescendingDeadlineOrderIsSortedOnceWhenDue() {
        int count = 400_000;
        long tick = 1_000_000;
        TimerQueue<Integer> queue = TimerQueues.sortedHashedWheel(0, tick, 512);
        for (int i = 0; i < count; i++) {
            queue.schedule(5 * tick - 1 - i, i); // one tick, each deadline earlier than the last
        }
        queue.schedule(5 * tick - count, count); // ties with the last: comes after it
        List<Integer> out = new ArrayList<>();
        assertThat(queue.poll(5 * tick, h -> out.add(h.payload()), Integer.MAX_VALUE))
                .isEqualTo(count + 1);
        assertThat(out.subList(0, 3)).containsExactly(count - 1, count, count - 2);
        for (int i = 2; i < count; i++) {
            assertThat(out.get(i + 1)).isEqualTo(count - 1 - i);
        }
    }
}
