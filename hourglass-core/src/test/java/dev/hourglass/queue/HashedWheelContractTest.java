package dev.hourglass.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The contract and the scenarios both hashed wheels share, run on a 64-slot wheel and again on a
 * tiny one (4 slots of 7 ns) where every slot holds many rotations. A subclass names the wheel.
 */
abstract class HashedWheelContractTest extends TimerQueueContractTest {

    /** Makes the wheel under test. */
    abstract <T> TimerQueue<T> newWheel(long startTime, long tickNanos, int slots);

    @Override
    final <T> TimerQueue<T> newQueue(long startTime) {
        return newWheel(startTime, 1_000, 64);
    }

    /** The whole contract again on a tiny wheel, so that every slot holds many rotations. */
    @Nested
    class FourSlotsOfSevenNanos extends TimerQueueContractTest {
        @Override
        <T> TimerQueue<T> newQueue(long startTime) {
            return newWheel(startTime, 7, 4);
        }

        @Override
        WithinTickOrder order() {
            return HashedWheelContractTest.this.order();
        }
    }

    @Test
    void badSlotsAndTicksAreRefusedWithTheValue() {
        WheelScenarios.refusesBadSlots(slots -> newWheel(0, 1_000, slots));
        assertThatThrownBy(() -> newWheel(0, -1, 64))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("tickNanos")
                .hasMessageContaining("-1");
    }

    @ParameterizedTest
    @ValueSource(longs = {NEAR_MIN, 0, NEAR_MAX})
    @Timeout(10)
    void aJumpOf2To40TicksDeliversEverythingInTickOrder(long start) {
        WheelScenarios.longJumpDeliversInTickOrder(newWheel(start, 1_000, 64), 1L << 40, ModelRun.seed(start));
    }

    @Test
    void manyRotationsShareASlot() {
        WheelScenarios.manyRotationsShareASlot(newWheel(-20, 7, 4));
    }

    /**
     * A million timers an hour or two out (thousands of rounds away, in every slot) and a trickle
     * of short timeouts, ticked for 50 s of 1 ms ticks with a next-deadline search before every
     * poll and a lull of a second now and then. Looking at the far timers of a slot on each tick
     * (2,000 per slot) took over 10 s here; keeping the rounds apart takes well under a second.
     */
    @Test
    @Timeout(120)
    void aMillionTimersOfLaterRoundsAreNotLookedAtAsTheWheelTurns() {
        long ms = 1_000_000;
        TimerQueue<Integer> queue = newWheel(0, ms, 512);
        int far = 1_000_000;
        for (int i = 0; i < far; i++) {
            // A fixed one-hour timeout issued every 3.6 ms over the hour before.
            queue.schedule(3_600_000 * ms + i * 7_200_000L, i);
        }
        int turns = 50_000;
        int[] delivered = {0};
        long now = 0;
        // The filling's garbage is collected first, so that the loop measures the wheel alone.
        System.gc();
        long started = System.nanoTime();
        for (int t = 1; t <= turns; t++) {
            now += t % 1_000 == 0 ? 1_000 * ms : ms;
            queue.schedule(now + 5 * ms, -t);
            long next = queue.nextDeadline();
            assertThat(next - now).isLessThanOrEqualTo(5 * ms);
            queue.poll(now, h -> delivered[0]++, Integer.MAX_VALUE);
        }
        long elapsed = System.nanoTime() - started;
        assertThat(delivered[0]).isBetween(turns - 5, turns);
        assertThat(queue.size()).isEqualTo(far + turns - delivered[0]);
        assertThat(elapsed).as("ns for %d turns with 1e6 far timers", turns).isLessThan(5_000_000_000L);
    }

    @Test
    void nextDeadlinePrefersATimerOfThisRotationOverAnEarlierSlot() {
        TimerQueue<Integer> queue = newWheel(0, 10, 4);
        queue.schedule(60, 6);
        queue.schedule(90, 9);
        assertThat(queue.nextDeadline()).isEqualTo(60);
        // Slot 3 comes after slot 2 (tick 6, next rotation), yet tick 3 is sooner.
        queue.schedule(25, 3);
        assertThat(queue.nextDeadline()).isEqualTo(30);
    }
}
