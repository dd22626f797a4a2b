package dev.hourglass.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Cases a review found the contract and model tests missed; one per structure where it applies. */
class ReviewRegressionTest {

    @ParameterizedTest
    @EnumSource(TimerStructure.class)
    void pollsStoppedByALimitOfZeroStillMoveTimeAndNeverDeliverEarly(TimerStructure structure) {
        TimerQueue<String> queue = structure.newQueue(0, 1);
        queue.poll(Long.MAX_VALUE, h -> {}, 0);
        // A second jump of Long.MAX_VALUE: legal, and the wheel must not fall 2^64 ns behind.
        queue.poll(Long.MAX_VALUE + Long.MAX_VALUE, h -> {}, 0);
        long t = queue.time();
        queue.schedule(t + 1, "future");
        List<String> out = new ArrayList<>();
        queue.poll(t, h -> out.add(h.payload()), 10);
        assertThat(out).isEmpty();
        queue.poll(t + 1, h -> out.add(h.payload()), 10);
        assertThat(out).containsExactly("future");
    }

    @Test
    void anEmptySimpleWheelAcceptsTheNextTickAfterALimitZeroPoll() {
        TimerQueue<String> queue = TimerQueues.simpleWheel(0, 1, 8);
        queue.poll(100, h -> {}, 0);
        queue.schedule(queue.time() + 1, "next tick");
        assertThat(queue.horizon()).isEqualTo(107);
    }

    @Test
    void insideThePollASimpleWheelsHorizonCountsFromTheTickBeingDelivered() {
        TimerQueue<String> queue = TimerQueues.simpleWheel(0, 1, 8);
        queue.schedule(1, "periodic");
        long[] horizon = {0};
        queue.poll(
                100,
                h -> {
                    horizon[0] = queue.horizon();
                    queue.reschedule(h, h.deadline() + 5);
                    assertThatThrownBy(() -> queue.reschedule(h, queue.time() + 5))
                            .isInstanceOf(IllegalArgumentException.class)
                            .hasMessageContaining("range");
                },
                1);
        assertThat(horizon[0]).isEqualTo(8);
        assertThat(queue.size()).isEqualTo(1);
    }

    @Test
    void reArmingTheDeliveredTimerBeyondTheRangeIsRefusedAndChangesNothing() {
        TimerQueue<String> queue = TimerQueues.simpleWheel(0, 1, 8);
        queue.schedule(1, "once");
        assertThatThrownBy(() -> queue.poll(1, h -> queue.reschedule(h, 9), 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("range");
        assertThat(queue.size()).isZero();
    }

    @ParameterizedTest
    @EnumSource(TimerStructure.class)
    void timeIsNowAlreadyInsideTheConsumer(TimerStructure structure) {
        TimerQueue<String> queue = structure.newQueue(0, 1);
        queue.schedule(3, "x");
        long[] seen = {0};
        queue.poll(10, h -> seen[0] = queue.time(), 1);
        assertThat(seen[0]).isEqualTo(10);
    }

    @ParameterizedTest
    @EnumSource(TimerStructure.class)
    void aTimerWhoseConsumerThrewIsStaleAfterwards(TimerStructure structure) {
        TimerQueue<String> queue = structure.newQueue(0, 1);
        queue.schedule(0, "x");
        List<TimerHandle<String>> seen = new ArrayList<>();
        assertThatThrownBy(() -> queue.poll(
                        0,
                        h -> {
                            seen.add(h);
                            throw new IllegalStateException("boom");
                        },
                        1))
                .hasMessage("boom");
        assertThatThrownBy(() -> queue.reschedule(seen.get(0), 5))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("stale");
    }

    @ParameterizedTest
    @EnumSource(TimerStructure.class)
    void clearHandsOverEveryTimerEvenIfTheConsumerThrows(TimerStructure structure) {
        TimerQueue<String> queue = structure.newQueue(0, 1);
        for (int i = 0; i < 5; i++) {
            queue.schedule(i, "t" + i);
        }
        List<String> seen = new ArrayList<>();
        assertThatThrownBy(() -> queue.clear(h -> {
                    seen.add(h.payload());
                    throw new IllegalStateException("boom " + h.payload());
                }))
                .hasMessageStartingWith("boom");
        assertThat(seen).hasSize(5);
        assertThat(queue.isEmpty()).isTrue();
    }

    @ParameterizedTest
    @EnumSource(TimerStructure.class)
    void removedTimersAreNotRetained(TimerStructure structure) {
        TimerQueue<Object> queue = structure.newQueue(0, 1);
        TimerHandle<Object> a = queue.schedule(1, new Object());
        Object big = new byte[1 << 20];
        WeakReference<Object> payload = new WeakReference<>(big);
        TimerHandle<Object> b = queue.schedule(2, big);
        big = null;
        queue.schedule(3, "c");
        queue.cancel(a);
        queue.cancel(b);
        WeakReference<TimerHandle<Object>> handle = new WeakReference<>(b);
        b = null;
        a = null;
        for (int i = 0; i < 20 && (payload.get() != null || handle.get() != null); i++) {
            System.gc();
        }
        assertThat(payload.get()).as("payload of a cancelled timer").isNull();
        assertThat(handle.get()).as("handle of a cancelled timer").isNull();
    }
}
