package dev.hourglass.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SimpleTimingWheelTest extends TimerQueueContractTest {

    // The contract's scenarios place deadlines up to about 11,000 ticks ahead.
    private static final int SLOTS = 1 << 14;

    @Override
    <T> TimerQueue<T> newQueue(long startTime) {
        return TimerQueues.simpleWheel(startTime, 1_000, SLOTS);
    }

    @Override
    WithinTickOrder order() {
        return WithinTickOrder.INSERTION;
    }

    @Override
    long rangeTicks() {
        return SLOTS - 1;
    }

    @ParameterizedTest
    @ValueSource(longs = {NEAR_MIN, 0, NEAR_MAX})
    void matchesTheReferenceModelOnAWheelOfFourSlots(long start) {
        new ModelRun(
                        s -> TimerQueues.simpleWheel(s, 7, 4),
                        start,
                        7,
                        WithinTickOrder.INSERTION,
                        3,
                        ModelRun.seed(~start))
                .run(200_000);
    }

    @Test
    void badSlotsAndTicksAreRefusedWithTheValue() {
        WheelScenarios.refusesBadSlots(slots -> TimerQueues.simpleWheel(0, 1_000, slots));
        assertThatThrownBy(() -> TimerQueues.simpleWheel(0, 0, 64))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("tickNanos")
                .hasMessageContaining("0");
        assertThatThrownBy(() -> TimerQueues.simpleWheel(0, -5, 64))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("tickNanos")
                .hasMessageContaining("-5");
    }

    @ParameterizedTest
    @ValueSource(longs = {NEAR_MIN, 0, NEAR_MAX})
    @Timeout(10)
    void aJumpOf2To40TicksDeliversEverythingInTickOrder(long start) {
        WheelScenarios.longJumpDeliversInTickOrder(TimerQueues.simpleWheel(start, 1_000, 64), 63, ModelRun.seed(start));
    }

    @Test
    void theRangeMessageNamesTicksNanosAndTheDeadline() {
        TimerQueue<Integer> queue = TimerQueues.simpleWheel(0, 1_000, 64);
        queue.schedule(63_000, 1);
        assertThatThrownBy(() -> queue.schedule(63_001, 2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("range")
                .hasMessageContaining("63 ticks")
                .hasMessageContaining("63000 ns")
                .hasMessageContaining("63001");
        assertThat(queue.size()).isEqualTo(1);
    }

    @Test
    void theRangeCountsFromTheCurrentTickWhichLagsWhileDueTimersAreLeft() {
        TimerQueue<Integer> queue = TimerQueues.simpleWheel(0, 1_000, 64);
        queue.schedule(1_000, 1);
        queue.schedule(2_000, 2);
        assertThat(queue.poll(100_000, h -> {}, 1)).isEqualTo(1);
        // The wheel still stands at tick 1, where timer 2 waits: tick 100 is out of its reach.
        assertThatThrownBy(() -> queue.schedule(100_000, 3))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("range");
        queue.schedule(64_000, 4);
        assertThat(queue.poll(100_000, h -> {}, Integer.MAX_VALUE)).isEqualTo(2);
        queue.schedule(100_000 + 63_000, 5);
        assertThat(queue.nextDeadline()).isEqualTo(163_000);
    }

    @Test
    void moreTimersInOneTickThanSlotsComeInInsertionOrderNotDeadlineOrder() {
        TimerQueue<Integer> queue = TimerQueues.simpleWheel(0, 7, 4);
        List<TimerHandle<Integer>> handles = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            // Deadlines 1..7 all round up to tick 1, in a scrambled order.
            handles.add(queue.schedule(1 + (i * 3) % 7, i));
        }
        queue.reschedule(handles.get(0), 7);
        List<Integer> out = new ArrayList<>();
        queue.poll(7, h -> out.add(h.payload()), Integer.MAX_VALUE);
        List<Integer> expected = new ArrayList<>();
        for (int i = 1; i < 20; i++) {
            expected.add(i);
        }
        expected.add(0);
        assertThat(out).isEqualTo(expected);
    }

    @Test
    void aTimerTheConsumerMakesDueJoinsTheTickBeingDelivered() {
        TimerQueue<Integer> queue = TimerQueues.simpleWheel(0, 10, 4);
        queue.schedule(10, 1);
        queue.schedule(30, 3);
        List<Integer> out = new ArrayList<>();
        queue.poll(
                100,
                h -> {
                    out.add(h.payload());
                    if (h.payload() == 1) {
                        // Tick 1 is being delivered; 5 is overdue and joins it, 2 lands on tick 2.
                        queue.schedule(5, 5);
                        queue.schedule(20, 2);
                    }
                },
                Integer.MAX_VALUE);
        assertThat(out).containsExactly(1, 5, 2, 3);
    }
}
