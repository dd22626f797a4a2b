package dev.hourglass.timer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hourglass.queue.TimerQueue;
import dev.hourglass.queue.TimerQueues;
import dev.hourglass.queue.TimerStructure;
import dev.hourglass.time.ManualNanoClock;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The builder's queue factory and wheel layout, and the values it refuses. */
class TimerBuilderTest {

    private final ManualNanoClock clock = new ManualNanoClock(-1_000);

    @Test
    void aQueueFactoryMakesTheTimersQueueFromTheClocksReading() throws InterruptedException {
        AtomicReference<TimerQueue<?>> made = new AtomicReference<>();
        long[] startedAt = new long[1];
        try (Timer timer = Timers.builder()
                .clock(clock)
                .queue(start -> {
                    startedAt[0] = start;
                    TimerQueue<Object> queue = TimerQueues.redBlackTree(start);
                    made.set(queue);
                    return queue;
                })
                .startTimerThread()) {
            CountDownLatch ran = new CountDownLatch(1);
            timer.schedule(ran::countDown, 5, TimeUnit.NANOSECONDS);
            clock.advance(5);
            assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(startedAt[0]).isEqualTo(-1_000);
            assertThat(made.get().time()).isEqualTo(-995);
            assertThat(timer.toString()).contains("RedBlackTree");
        }
    }

    @Test
    void byDefaultATimeoutRunsWithinATenthOfAMillisecondOfItsDeadline() throws InterruptedException {
        ManualNanoClock fromZero = new ManualNanoClock(0);
        try (Timer timer = Timers.builder().clock(fromZero).startTimerThread()) {
            CountDownLatch ran = new CountDownLatch(1);
            timer.schedule(ran::countDown, 150, TimeUnit.MICROSECONDS);
            // the deadline rounded up to the default 0.1 ms tick; a 1 ms tick would wait until 1 ms
            fromZero.advance(TimerQueues.DEFAULT_TICK_NANOS * 2);
            assertThat(ran.await(10, TimeUnit.SECONDS))
                    .as("ran at 0.2 ms on the default tick")
                    .isTrue();
            assertThat(timer.toString()).contains("HierarchicalTimingWheel");
        }
    }

    @Test
    void theLayoutReachesTheWheel() {
        try (Timer hashed = Timers.builder()
                        .clock(clock)
                        .structure(TimerStructure.HASHED_WHEEL)
                        .slots(64)
                        .startTimerThread();
                Timer hierarchical = Timers.builder()
                        .clock(clock)
                        .structure(TimerStructure.HIERARCHICAL_WHEEL)
                        .hierarchicalLayout(4, 3, 2)
                        .startTimerThread()) {
            assertThat(hashed.toString()).contains("HashedTimingWheel");
            assertThat(hierarchical.toString()).contains("layout=4+2x3");
        }
    }

    @Test
    void badValuesAreRefusedByName() {
        TimerBuilder builder = Timers.builder();
        assertThatThrownBy(() -> builder.slots(0)).hasMessageContaining("slots").hasMessageContaining("0");
        assertThatThrownBy(() -> builder.slots(48))
                .hasMessageContaining("slots")
                .hasMessageContaining("48");
        assertThatThrownBy(() -> builder.hierarchicalLayout(0, 6, 4)).hasMessageContaining("nearBits");
        assertThatThrownBy(() -> builder.hierarchicalLayout(8, 17, 4)).hasMessageContaining("levelBits");
        assertThatThrownBy(() -> builder.hierarchicalLayout(8, 6, -1)).hasMessageContaining("levels");
        assertThatThrownBy(() -> builder.hierarchicalLayout(16, 16, 4)).hasMessageContaining("62");
        assertThatThrownBy(() -> builder.tick(Duration.ZERO)).hasMessageContaining("tick");
        assertThatThrownBy(() -> builder.queue(null)).hasMessageContaining("factory");
        assertThatThrownBy(() -> Timers.builder().queue(start -> null).startTimerThread())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("queue factory");
        TimerQueue<Object> used = TimerQueues.binaryHeap(0);
        used.schedule(1, "taken");
        assertThatThrownBy(() -> Timers.builder().queue(start -> used).startTimerThread())
                .hasMessageContaining("new, empty");
    }
}
