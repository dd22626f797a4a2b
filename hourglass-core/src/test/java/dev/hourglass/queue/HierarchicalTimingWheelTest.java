package dev.hourglass.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The contract on the default layout (256 + 4 × 64 slots, a range of 2^32 ticks), plus what is
 * particular to a hierarchical wheel: cascades out of every level, the overflow list and its
 * epochs, jumps over empty ticks, other layouts and the layout's bounds.
 */
class HierarchicalTimingWheelTest extends TimerQueueContractTest {

    private static final long TICK = 1_000;

    /** Ticks at and next to every level's boundary in the default layout, and beyond its range. */
    private static final long[] BOUNDARY_TICKS = {
        255,
        256,
        (1L << 14) - 1,
        1L << 14,
        (1L << 20) - 1,
        1L << 20,
        (1L << 26) - 1,
        1L << 26,
        (1L << 32) - 1,
        1L << 32,
        1L << 40
    };

    @Override
    <T> TimerQueue<T> newQueue(long startTime) {
        return TimerQueues.hierarchicalWheel(startTime, TICK);
    }

    @Override
    WithinTickOrder order() {
        return WithinTickOrder.ANY;
    }

    /**
     * Schedules two timers per boundary tick (one on the boundary, one just after the tick before,
     * both due at the boundary) and one at {@code start + Long.MAX_VALUE}; returns each payload's
     * due time as an unsigned offset from the start.
     */
    private static Map<Integer, Long> scheduleAtEveryBoundary(TimerQueue<Integer> queue, long start) {
        Map<Integer, Long> due = new LinkedHashMap<>();
        int payload = 0;
        for (long ticks : BOUNDARY_TICKS) {
            queue.schedule(start + ticks * TICK, payload);
            due.put(payload++, ticks * TICK);
            queue.schedule(start + (ticks - 1) * TICK + 1, payload);
            due.put(payload++, ticks * TICK);
        }
        queue.schedule(start + Long.MAX_VALUE, payload);
        // Rounded up to a whole tick, this one lies beyond Long.MAX_VALUE: an unsigned offset.
        due.put(payload, (Long.MAX_VALUE / TICK + 1) * TICK);
        return due;
    }

    /** The next deadline the queue must report: the earliest due time, capped at time + MAX_VALUE. */
    private static long expectedNextDeadline(TimerQueue<Integer> queue, long start, Map<Integer, Long> pendingDue) {
        long earliest = pendingDue.values().stream().min(Long::compareUnsigned).orElseThrow();
        long elapsed = queue.time() - start;
        return Long.compareUnsigned(earliest - elapsed, Long.MAX_VALUE) > 0
                ? queue.time() + Long.MAX_VALUE
                : start + earliest;
    }

    @ParameterizedTest
    @ValueSource(longs = {NEAR_MIN, 0, NEAR_MAX})
    void cascadesOutOfEveryLevelTickByTickNearEachBoundary(long start) {
        TimerQueue<Integer> queue = newQueue(start);
        Map<Integer, Long> due = scheduleAtEveryBoundary(queue, start);
        Map<Integer, Long> pending = new LinkedHashMap<>(due);
        Map<Integer, Long> deliveredAt = new LinkedHashMap<>();
        TreeSet<Long> polls = new TreeSet<>(Long::compareUnsigned);
        for (long d : due.values()) {
            for (long k = -3; k <= 2; k++) {
                polls.add(d + k * TICK);
            }
            polls.add(d - 1);
        }
        for (long offset : polls) {
            if (!pending.isEmpty()) {
                assertThat(queue.nextDeadline()).isEqualTo(expectedNextDeadline(queue, start, pending));
            }
            queue.poll(
                    start + offset,
                    h -> {
                        deliveredAt.put(h.payload(), offset);
                        pending.remove(h.payload());
                    },
                    Integer.MAX_VALUE);
        }
        assertThat(deliveredAt).isEqualTo(due);
        assertThat(queue.isEmpty()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(longs = {NEAR_MIN, 0, NEAR_MAX})
    void cascadesOutOfEveryLevelInOneJumpPerBoundary(long start) {
        TimerQueue<Integer> queue = newQueue(start);
        Map<Integer, Long> due = scheduleAtEveryBoundary(queue, start);
        Map<Integer, Long> pending = new LinkedHashMap<>(due);
        TreeSet<Long> dues = new TreeSet<>(Long::compareUnsigned);
        dues.addAll(due.values());
        for (long d : dues) {
            assertThat(queue.nextDeadline()).isEqualTo(expectedNextDeadline(queue, start, pending));
            List<Integer> out = new ArrayList<>();
            queue.poll(start + d - 1, h -> out.add(h.payload()), Integer.MAX_VALUE);
            assertThat(out).as("polled one nanosecond before %d", d).isEmpty();
            queue.poll(start + d, h -> out.add(h.payload()), Integer.MAX_VALUE);
            List<Integer> expected = new ArrayList<>();
            pending.forEach((payload, at) -> {
                if (at == d) {
                    expected.add(payload);
                }
            });
            assertThat(out).as("polled at %d", d).containsExactlyInAnyOrderElementsOf(expected);
            expected.forEach(pending::remove);
        }
        assertThat(queue.isEmpty()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(longs = {NEAR_MIN, 0, NEAR_MAX})
    void oneLongPollDeliversEveryLevelInTickOrder(long start) {
        TimerQueue<Integer> queue = newQueue(start);
        Map<Integer, Long> due = scheduleAtEveryBoundary(queue, start);
        List<Long> order = new ArrayList<>();
        int delivered = queue.poll(start + (1L << 41) * TICK, h -> order.add(due.get(h.payload())), Integer.MAX_VALUE);
        assertThat(delivered).isEqualTo(due.size() - 1);
        assertThat(order).isSorted();
        assertThat(queue.size()).isEqualTo(1);
        long last = start + (Long.MAX_VALUE / TICK + 1) * TICK;
        assertThat(queue.nextDeadline()).isEqualTo(last);
        assertThat(queue.poll(last - 1, h -> {}, Integer.MAX_VALUE)).isZero();
        assertThat(queue.poll(last, h -> {}, Integer.MAX_VALUE)).isEqualTo(1);
    }

    @ParameterizedTest
    @ValueSource(longs = {NEAR_MIN, 0, NEAR_MAX})
    void aTimerAcrossTheEpochBoundaryWaitsInTheOverflowListAndIsOnTime(long start) {
        TimerQueue<Integer> queue = newQueue(start);
        long epoch = (1L << 32) * TICK;
        queue.poll(start + epoch - 10 * TICK, h -> {}, Integer.MAX_VALUE);
        // Within range, but its tick differs from the current one above the top level.
        queue.schedule(start + epoch + 10 * TICK - 1, 1);
        queue.schedule(start + epoch - 5 * TICK, 0);
        queue.schedule(start + 2 * epoch + 3 * TICK, 2);
        assertThat(queue.nextDeadline()).isEqualTo(start + epoch - 5 * TICK);
        List<Long> at = new ArrayList<>();
        for (long t = epoch - 10 * TICK; t <= epoch + 12 * TICK; t += TICK) {
            long now = t;
            queue.poll(start + now, h -> at.add(now), Integer.MAX_VALUE);
        }
        assertThat(at).containsExactly(epoch - 5 * TICK, epoch + 10 * TICK);
        assertThat(queue.nextDeadline()).isEqualTo(start + 2 * epoch + 3 * TICK);
        assertThat(queue.poll(start + 2 * epoch + 3 * TICK - 1, h -> {}, Integer.MAX_VALUE))
                .isZero();
        assertThat(queue.poll(start + 2 * epoch + 3 * TICK, h -> {}, Integer.MAX_VALUE))
                .isEqualTo(1);
    }

    @Test
    void limitStopsInsideACascadedTickAndTheRestComeNext() {
        TimerQueue<Integer> queue = newQueue(0);
        for (int i = 0; i < 10; i++) {
            queue.schedule(300 * TICK, i);
        }
        queue.schedule(70_000 * TICK, 10);
        List<Integer> out = new ArrayList<>();
        assertThat(queue.poll(100_000 * TICK, h -> out.add(h.payload()), 4)).isEqualTo(4);
        assertThat(queue.nextDeadline()).isEqualTo(300 * TICK);
        // A timer due between the stopped tick and now still comes in tick order.
        queue.schedule(400 * TICK, 11);
        assertThat(queue.poll(100_000 * TICK, h -> out.add(h.payload()), 6)).isEqualTo(6);
        assertThat(queue.nextDeadline()).isEqualTo(400 * TICK);
        assertThat(queue.poll(100_000 * TICK, h -> out.add(h.payload()), 10)).isEqualTo(2);
        assertThat(out.subList(0, 10)).containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
        assertThat(out.subList(10, 12)).containsExactly(11, 10);
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void pollsJumpOverEmptyTicks() {
        TimerQueue<Integer> queue = newQueue(0);
        long far = (1L << 50) * TICK;
        queue.schedule(far, 1);
        queue.schedule((3L << 40) * TICK + 5 * TICK, 2);
        queue.schedule((1L << 33) * TICK - 1, 3);
        List<Long> at = new ArrayList<>();
        long step = (1L << 40) * TICK;
        for (long now = step; now <= far; now += step) {
            long t = now;
            queue.poll(now, h -> at.add(t), Integer.MAX_VALUE);
        }
        assertThat(at).containsExactly(step, 4 * step, far);
        // An empty wheel over 2^60 ticks at a 1 ns tick.
        TimerQueue<Integer> empty = TimerQueues.hierarchicalWheel(0, 1);
        assertThat(empty.poll(1L << 60, h -> {}, 1)).isZero();
        empty.schedule((1L << 61) + 7, 4);
        assertThat(empty.poll((1L << 61) + 6, h -> {}, 1)).isZero();
        assertThat(empty.poll((1L << 61) + 7, h -> {}, 1)).isEqualTo(1);
    }

    @ParameterizedTest
    @ValueSource(longs = {NEAR_MIN, 0, NEAR_MAX})
    void noUpperLevelsLeavesTheNearWheelAndTheOverflowList(long start) {
        TimerQueue<Integer> queue = TimerQueues.hierarchicalWheel(start, TICK, 3, 6, 0);
        long[] ticks = {0, 1, 7, 8, 9, 15, 16, 100, 1_000_000};
        for (int i = 0; i < ticks.length; i++) {
            queue.schedule(start + ticks[i] * TICK, i);
        }
        List<Long> at = new ArrayList<>();
        for (long t = 0; t <= 20; t++) {
            long tick = t;
            queue.poll(start + t * TICK, h -> at.add(tick), Integer.MAX_VALUE);
        }
        assertThat(at).containsExactly(0L, 1L, 7L, 8L, 9L, 15L, 16L);
        assertThat(queue.nextDeadline()).isEqualTo(start + 100 * TICK);
        queue.poll(start + 100 * TICK - 1, h -> at.add(-1L), Integer.MAX_VALUE);
        queue.poll(start + 100 * TICK, h -> at.add(100L), Integer.MAX_VALUE);
        assertThat(queue.nextDeadline()).isEqualTo(start + 1_000_000 * TICK);
        queue.poll(start + 1_000_000 * TICK, h -> at.add(1_000_000L), Integer.MAX_VALUE);
        assertThat(at).endsWith(100L, 1_000_000L).doesNotContain(-1L);
        assertThat(queue.isEmpty()).isTrue();
    }

    /**
     * A driver that sleeps until {@code nextWork()} and polls there, as the timer thread does,
     * delivers every timer within a tick of its deadline and never early, and makes progress:
     * between two deliveries it polls at most once per level (each poll cascades a slot). Starts
     * near {@code Long.MIN_VALUE}, 0 and {@code Long.MAX_VALUE}.
     */
    @ParameterizedTest
    @ValueSource(longs = {Long.MIN_VALUE + 5, 0, Long.MAX_VALUE - 5})
    void aDriverPollingAtEachNextWorkDeliversEverythingOnTime(long start) {
        long seed = ModelRun.seed(start);
        java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
        TimerQueue<Long> queue = newQueue(start);
        int timers = 3_000;
        for (int i = 0; i < timers; i++) {
            // Near, every level, and past the range into the overflow list.
            long delay = random.nextLong(0, 1L << random.nextInt(1, 46));
            queue.schedule(start + delay, delay);
        }
        int delivered = 0;
        int emptyPolls = 0;
        while (!queue.isEmpty()) {
            long work = queue instanceof AbstractTimerQueue ? ((AbstractTimerQueue<?, ?>) queue).nextWork() : 0;
            assertThat(work - queue.time())
                    .as("seed %d: next work at or before the next deadline", seed)
                    .isLessThanOrEqualTo(queue.nextDeadline() - queue.time());
            long now = work - queue.time() > 0 ? work : queue.time();
            int[] count = {0};
            queue.poll(
                    now,
                    handle -> {
                        long late = (now - start) - handle.payload();
                        assertThat(late).as("seed %d: lateness", seed).isBetween(0L, TICK);
                        count[0]++;
                    },
                    Integer.MAX_VALUE);
            delivered += count[0];
            emptyPolls = count[0] == 0 ? emptyPolls + 1 : 0;
            assertThat(emptyPolls)
                    .as("seed %d: polls without a delivery in a row", seed)
                    .isLessThanOrEqualTo(6);
        }
        assertThat(delivered).isEqualTo(timers);
    }

    /**
     * A timer a few ticks ahead that crosses a near rotation waits in level 1: the next work is its
     * own deadline, not the cascade before it, so a driver sleeping until the next work wakes once
     * for it. A slot longer than the scan limit is not scanned: its cascade is the next work.
     */
    @ParameterizedTest
    @ValueSource(longs = {Long.MIN_VALUE + 5, 0, Long.MAX_VALUE - 5})
    void aTimerAcrossANearRotationIsTheNextWorkItselfUnlessItsSlotIsLong(long start) {
        AbstractTimerQueue<Integer, ?> queue =
                (AbstractTimerQueue<Integer, ?>) TimerQueues.<Integer>hierarchicalWheel(start, TICK);
        queue.poll(start + 250 * TICK, handle -> {}, Integer.MAX_VALUE);
        queue.schedule(start + 260 * TICK, 0);

        assertThat(queue.nextWork()).isEqualTo(queue.nextDeadline()).isEqualTo(start + 260 * TICK);
        List<Integer> fired = new ArrayList<>();
        queue.poll(queue.nextWork(), handle -> fired.add(handle.payload()), Integer.MAX_VALUE);
        assertThat(fired).containsExactly(0);

        for (int i = 0; i <= HierarchicalTimingWheel.WORK_SCAN_LIMIT; i++) {
            queue.schedule(start + (260 + 300 - i % 3) * TICK, i);
        }
        // current tick 260: level 1 holds them all in the slot that starts at tick 512
        assertThat(queue.nextWork()).isEqualTo(start + 512 * TICK);
        // once the next deadline has scanned the slot its earliest timer is known, and is the work
        assertThat(queue.nextDeadline()).isEqualTo(start + 558 * TICK);
        assertThat(queue.nextWork()).isEqualTo(start + 558 * TICK);
    }

    /** Other layouts, from no upper level to the widest range and the largest wheels, and odd ticks. */
    @ParameterizedTest
    @CsvSource({
        "3, 6, 0, 1000",
        "1, 1, 61, 1000",
        "2, 15, 4, 1000",
        "16, 16, 2, 1000",
        "8, 6, 4, 1",
        "2, 2, 2, 7",
        "5, 3, 3, 1"
    })
    void otherLayoutsMatchTheReferenceModel(int nearBits, int levelBits, int levels, long tick) {
        long seed = ModelRun.seed(nearBits * 31 + levelBits * 7 + levels + tick);
        long start = new java.util.SplittableRandom(seed).nextLong();
        new ModelRun(
                        s -> TimerQueues.hierarchicalWheel(s, tick, nearBits, levelBits, levels),
                        start,
                        tick,
                        WithinTickOrder.ANY,
                        Long.MAX_VALUE,
                        seed)
                .run(60_000);
    }

    @ParameterizedTest
    @CsvSource({
        "1000, 0, 6, 4, nearBits, 0",
        "1000, 17, 6, 4, nearBits, 17",
        "1000, -1, 6, 4, nearBits, -1",
        "1000, 8, 0, 4, levelBits, 0",
        "1000, 8, 17, 4, levelBits, 17",
        "1000, 8, 6, -1, levels, -1",
        "1000, 8, 6, 10, levels, 10",
        "1000, 1, 1, 62, levels, 62",
        "1000, 16, 16, 3, levels, 3",
        "1000, 8, 6, 2147483647, levels, 2147483647",
        "0, 8, 6, 4, tickNanos, 0",
        "-5, 8, 6, 4, tickNanos, -5"
    })
    void badLayoutsAreRefusedWithTheArgumentNamed(
            long tick, int nearBits, int levelBits, int levels, String name, String value) {
        assertThatThrownBy(() -> TimerQueues.hierarchicalWheel(0, tick, nearBits, levelBits, levels))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(name)
                .hasMessageContaining(value);
    }

    @ParameterizedTest
    @CsvSource({"1, 1, 0", "16, 16, 2", "2, 15, 4", "1, 1, 61", "14, 16, 3"})
    void layoutsAtTheBoundsAreAccepted(int nearBits, int levelBits, int levels) {
        TimerQueue<Integer> queue = TimerQueues.hierarchicalWheel(0, 1, nearBits, levelBits, levels);
        queue.schedule(Long.MAX_VALUE, 1);
        queue.schedule(1L << 40, 2);
        List<Integer> out = new ArrayList<>();
        queue.poll(1L << 40, h -> out.add(h.payload()), Integer.MAX_VALUE);
        queue.poll(Long.MAX_VALUE, h -> out.add(h.payload()), Integer.MAX_VALUE);
        assertThat(out).containsExactly(2, 1);
    }

    /**
     * At the proposed default tick of 0.1 ms, a driver's turns among a million timers a day or two
     * out stay cheap: the near wheel answers next deadline and a lull's catch-up jumps from event
     * to event, never looking at the far timers.
     */
    @Test
    @Timeout(120)
    void aMillionFarTimersCostTheTurnsNothingAtTheDefaultTick() {
        TimerQueue<Integer> queue = TimerQueues.hierarchicalWheel(0, TimerQueues.DEFAULT_TICK_NANOS);
        long elapsed = WheelScenarios.turnsAmongAMillionFarTimers(queue, TimeUnit.DAYS.toNanos(1));
        assertThat(elapsed).as("ns for the turns").isLessThan(5_000_000_000L);
    }
}
