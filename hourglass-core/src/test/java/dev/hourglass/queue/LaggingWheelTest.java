package dev.hourglass.queue;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A wheel's current tick lags its time after a poll stops at its limit; the next poll may then land
 * more than {@code Long.MAX_VALUE} after that tick while every pending deadline stays within {@code
 * Long.MAX_VALUE} of the queue's time. The wheels must still deliver on time and in tick order.
 */
class LaggingWheelTest {

    private static final long MS = 1_000_000;

    static Stream<Named<LongFunction<TimerQueue<String>>>> wheels() {
        return Stream.of(
                Named.of("hashed", start -> TimerQueues.hashedWheel(start, MS, 512)),
                Named.of("sorted hashed", start -> TimerQueues.sortedHashedWheel(start, MS, 512)),
                Named.of("hierarchical", start -> TimerQueues.hierarchicalWheel(start, MS)),
                Named.of("hierarchical, 1 ns tick", start -> TimerQueues.hierarchicalWheel(start, 1)),
                Named.of("hashed, 1 ns tick", start -> TimerQueues.hashedWheel(start, 1, 512)));
    }

    private static List<String> poll(TimerQueue<String> queue, long now, int limit) {
        List<String> out = new ArrayList<>();
        queue.poll(now, h -> out.add(h.payload()), limit);
        return out;
    }

    /** The reproduction: b came out 1 ns early from the hashed wheel. */
    @ParameterizedTest
    @MethodSource("wheels")
    void aPollMoreThanMaxValuePastTheLaggingTickIsNeverEarly(LongFunction<TimerQueue<String>> wheel) {
        for (long start : new long[] {Long.MIN_VALUE + 3, 0, Long.MAX_VALUE - 5_000}) {
            TimerQueue<String> queue = wheel.apply(start);
            TimerHandle<String> a = queue.schedule(start + MS, "a");
            assertThat(poll(queue, start + (1L << 62), 0)).isEmpty();
            assertThat(queue.cancel(a)).isTrue();
            TimerHandle<String> b = queue.schedule(queue.time() + (1L << 62) + (1L << 61), "b");
            assertThat(poll(queue, b.deadline() - 1, Integer.MAX_VALUE))
                    .as("from start %d", start)
                    .isEmpty();
            long due = queue.nextDeadline();
            assertThat(due - b.deadline()).isBetween(0L, queue.tick() - 1);
            assertThat(poll(queue, due, Integer.MAX_VALUE)).containsExactly("b");
        }
    }

    @ParameterizedTest
    @MethodSource("wheels")
    void timersStillComeInTickOrderAfterTheJump(LongFunction<TimerQueue<String>> wheel) {
        TimerQueue<String> queue = wheel.apply(0);
        TimerHandle<String> a = queue.schedule(MS, "a");
        assertThat(poll(queue, 1L << 62, 0)).isEmpty();
        queue.cancel(a);
        long t = queue.time();
        queue.schedule(t + (1L << 62) + 10 * MS, "c");
        queue.schedule(t + (1L << 62) + 3 * MS, "b");
        queue.schedule(t + (1L << 62) + 5_000 * MS, "d");
        queue.schedule(t + Long.MAX_VALUE, "e");
        assertThat(poll(queue, t + (1L << 62) + (1L << 61), Integer.MAX_VALUE)).containsExactly("b", "c", "d");
        assertThat(queue.size()).isEqualTo(1);
        assertThat(queue.nextDeadline() - (t + Long.MAX_VALUE)).isBetween(0L, queue.tick() - 1);
        assertThat(poll(queue, t + Long.MAX_VALUE - 1, Integer.MAX_VALUE)).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("wheels")
    void aTimerScheduledByTheConsumerAfterTheJumpIsHeldUntilItsTick(LongFunction<TimerQueue<String>> wheel) {
        TimerQueue<String> queue = wheel.apply(0);
        TimerHandle<String> a = queue.schedule(MS, "a");
        assertThat(poll(queue, 1L << 62, 0)).isEmpty();
        queue.cancel(a);
        long t = queue.time();
        queue.schedule(t + (1L << 62), "b");
        long now = t + Long.MAX_VALUE - 7;
        List<String> out = new ArrayList<>();
        queue.poll(
                now,
                h -> {
                    out.add(h.payload());
                    if (h.payload().equals("b")) {
                        queue.schedule(now + Long.MAX_VALUE, "far");
                        queue.schedule(now + 1, "next");
                    }
                },
                Integer.MAX_VALUE);
        assertThat(out).containsExactly("b");
        assertThat(queue.size()).isEqualTo(2);
        assertThat(poll(queue, queue.nextDeadline(), Integer.MAX_VALUE)).containsExactly("next");
        assertThat(poll(queue, now + Long.MAX_VALUE - 1, Integer.MAX_VALUE)).isEmpty();
        assertThat(poll(queue, queue.nextDeadline(), Integer.MAX_VALUE)).containsExactly("far");
    }
}
