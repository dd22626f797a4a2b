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

class HashedTimingWheelTest extends TimerQueueContractTest {
    @Override
    <T> TimerQueue<T> newQueue(long startTime) {
        return TimerQueues.hashedWheel(startTime, 1_000, 64);
    }

    @Override
    WithinTickOrder order() {
        return WithinTickOrder.ANY;
    }

    /** The whole contract again on a tiny wheel, so that every slot holds many rotations. */
    @Nested
    class FourSlotsOfSevenNanos extends TimerQueueContractTest {
        @Override
        <T> TimerQueue<T> newQueue(long startTime) {
            return TimerQueues.hashedWheel(startTime, 7, 4);
        }

        @Override
        WithinTickOrder order() {
            return WithinTickOrder.ANY;
        }
    }

    @Test
    void badSlotsAndTicksAreRefusedWithTheValue() {
        WheelScenarios.refusesBadSlots(slots -> TimerQueues.hashedWheel(0, 1_000, slots));
        assertThatThrownBy(() -> TimerQueues.hashedWheel(0, -1, 64))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("tickNanos")
                .hasMessageContaining("-1");
    }

    @ParameterizedTest
    @ValueSource(longs = {NEAR_MIN, 0, NEAR_MAX})
    @Timeout(10)
    void aJumpOf2To40TicksDeliversEverythingInTickOrder(long start) {
        WheelScenarios.longJumpDeliversInTickOrder(
                TimerQueues.hashedWheel(start, 1_000, 64), 1L << 40, ModelRun.seed(start));
    }

    @Test
    void manyRotationsShareASlot() {
        WheelScenarios.manyRotationsShareASlot(TimerQueues.hashedWheel(-20, 7, 4));
    }

    @Test
    void nextDeadlinePrefersATimerOfThisRotationOverAnEarlierSlot() {
        TimerQueue<Integer> queue = TimerQueues.hashedWheel(0, 10, 4);
        queue.schedule(60, 6);
        queue.schedule(90, 9);
        assertThat(queue.nextDeadline()).isEqualTo(60);
        // Slot 3 comes after slot 2 (tick 6, next rotation), yet tick 3 is sooner.
        queue.schedule(25, 3);
        assertThat(queue.nextDeadline()).isEqualTo(30);
    }

    @Test
    void dueTimersLeftAtTheLimitComeFirstAndCanStillBeCancelledOrCleared() {
        TimerQueue<Integer> queue = TimerQueues.hashedWheel(0, 10, 4);
        List<TimerHandle<Integer>> handles = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            handles.add(queue.schedule(20, i));
        }
        queue.schedule(60, 6);
        List<Integer> out = new ArrayList<>();
        assertThat(queue.poll(100, h -> out.add(h.payload()), 2)).isEqualTo(2);
        assertThat(queue.size()).isEqualTo(4);
        assertThat(queue.nextDeadline()).isEqualTo(20);
        TimerHandle<Integer> left =
                handles.stream().filter(TimerHandle::isPending).findFirst().orElseThrow();
        assertThat(queue.cancel(left)).isTrue();
        assertThat(queue.poll(100, h -> out.add(h.payload()), 1)).isEqualTo(1);
        assertThat(queue.size()).isEqualTo(2);
        List<Integer> cleared = new ArrayList<>();
        assertThat(queue.clear(h -> cleared.add(h.payload()))).isEqualTo(2);
        assertThat(cleared).contains(6).hasSize(2);
        assertThat(out).hasSize(3).doesNotContain(left.payload(), 6);
        assertThat(queue.poll(100, h -> out.add(h.payload()), 10)).isZero();
    }
}
