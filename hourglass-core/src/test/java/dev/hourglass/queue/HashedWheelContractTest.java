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
     * With a million timers an hour or two out (thousands of rounds away, 2,000 in every slot),
     * looking at a slot's far timers on each tick took over 10 s for these turns here; keeping the
     * rounds apart takes well under a second.
     */
    @Test
    @Timeout(120)
    void aMillionTimersOfLaterRoundsAreNotLookedAtAsTheWheelTurns() {
        long ms = 1_000_000;
        long elapsed = WheelScenarios.turnsAmongAMillionFarTimers(newWheel(0, ms, 512), 3_600_000 * ms);
        assertThat(elapsed).as("ns for the turns").isLessThan(5_000_000_000L);
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
