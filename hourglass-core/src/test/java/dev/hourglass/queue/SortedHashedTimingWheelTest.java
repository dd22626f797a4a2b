package dev.hourglass.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SortedHashedTimingWheelTest extends TimerQueueContractTest {
    @Override
    <T> TimerQueue<T> newQueue(long startTime) {
        return TimerQueues.sortedHashedWheel(startTime, 1_000, 64);
    }

    @Override
    WithinTickOrder order() {
        return WithinTickOrder.DEADLINE;
    }

    /** The whole contract again on a tiny wheel, so that every slot holds many rotations. */
    @Nested
    class FourSlotsOfSevenNanos extends TimerQueueContractTest {
        @Override
        <T> TimerQueue<T> newQueue(long startTime) {
            return TimerQueues.sortedHashedWheel(startTime, 7, 4);
        }

        @Override
        WithinTickOrder order() {
            return WithinTickOrder.DEADLINE;
        }
    }

    @Test
    void badSlotsAndTicksAreRefusedWithTheValue() {
        WheelScenarios.refusesBadSlots(slots -> TimerQueues.sortedHashedWheel(0, 1_000, slots));
        assertThatThrownBy(() -> TimerQueues.sortedHashedWheel(0, -1, 64))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("tickNanos")
                .hasMessageContaining("-1");
    }

    @ParameterizedTest
    @ValueSource(longs = {NEAR_MIN, 0, NEAR_MAX})
    @Timeout(10)
    void aJumpOf2To40TicksDeliversEverythingInTickOrder(long start) {
        WheelScenarios.longJumpDeliversInTickOrder(
                TimerQueues.sortedHashedWheel(start, 1_000, 64), 1L << 40, ModelRun.seed(start));
    }

    @Test
    void manyRotationsShareASlot() {
        WheelScenarios.manyRotationsShareASlot(TimerQueues.sortedHashedWheel(-20, 7, 4));
    }

    @Test
    void nextDeadlinePrefersATimerOfThisRotationOverAnEarlierSlot() {
        TimerQueue<Integer> queue = TimerQueues.sortedHashedWheel(0, 10, 4);
        queue.schedule(60, 6);
        queue.schedule(90, 9);
        assertThat(queue.nextDeadline()).isEqualTo(60);
        // Slot 3 comes after slot 2 (tick 6, next rotation), yet tick 3 is sooner.
        queue.schedule(25, 3);
        assertThat(queue.nextDeadline()).isEqualTo(30);
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
}
