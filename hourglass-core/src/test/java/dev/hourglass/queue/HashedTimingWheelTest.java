package dev.hourglass.queue;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class HashedTimingWheelTest extends HashedWheelContractTest {
    @Override
    <T> TimerQueue<T> newWheel(long startTime, long tickNanos, int slots) {
        return TimerQueues.hashedWheel(startTime, tickNanos, slots);
    }

    @Override
    WithinTickOrder order() {
        return WithinTickOrder.ANY;
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
