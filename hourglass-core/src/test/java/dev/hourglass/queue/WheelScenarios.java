package dev.hourglass.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.IntFunction;

/** Scenarios particular to the timing wheels, shared by their tests. */
final class WheelScenarios {

    private WheelScenarios() {}

    /** A wheel refuses a slot count that is not a positive power of two, naming it and the value. */
    static void refusesBadSlots(IntFunction<TimerQueue<Integer>> wheelWithSlots) {
        for (int slots : new int[] {0, 3, -4, 6, 1 << 31}) {
            assertThatThrownBy(() -> wheelWithSlots.apply(slots))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("slots")
                    .hasMessageContaining(Integer.toString(slots));
        }
        assertThat(wheelWithSlots.apply(1).isEmpty()).isTrue();
    }

    /**
     * Timers spread over {@code spreadTicks} ticks, then one poll 2^40 ticks later: everything comes
     * out in tick order, including timers the consumer re-arms on the way, and the poll is fast.
     */
    static void longJumpDeliversInTickOrder(TimerQueue<Integer> queue, long spreadTicks, long seed) {
        long start = queue.time();
        long tick = queue.tick();
        long jump = 1L << 40;
        SplittableRandom random = new SplittableRandom(seed);
        List<TimerHandle<Integer>> handles = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            // Off the tick boundaries, so the rounding up is exercised too.
            long deadline = start + random.nextLong(0, spreadTicks) * tick + random.nextLong(tick);
            handles.add(queue.schedule(deadline, i));
        }
        long[] lastTick = {0};
        int[] rearmed = {0};
        int delivered = queue.poll(
                start + jump * tick,
                h -> {
                    long dueTick = QueueModel.ceilDiv(h.deadline() - start, tick);
                    assertThat(dueTick).as("due tick of %s", h).isBetween(lastTick[0], jump);
                    lastTick[0] = dueTick;
                    if (random.nextInt(7) == 0) {
                        queue.reschedule(h, h.deadline() + random.nextLong(0, spreadTicks) * tick);
                        rearmed[0]++;
                    }
                },
                Integer.MAX_VALUE);
        int pending = 0;
        for (TimerHandle<Integer> h : handles) {
            if (h.isPending()) {
                pending++;
                assertThat(QueueModel.ceilDiv(h.deadline() - start, tick)).isGreaterThan(jump);
            }
        }
        assertThat(delivered).isEqualTo(handles.size() + rearmed[0] - pending);
        assertThat(queue.size()).isEqualTo(pending);
        assertThat(queue.time()).isEqualTo(start + jump * tick);
        if (pending > 0) {
            assertThat(queue.nextDeadline() - queue.time()).isPositive();
        }
    }

    /**
     * On a wheel of 4 slots, several timers share each slot across rotations; stepping one tick at a
     * time delivers each at its own tick and never another rotation's, and the next deadline follows.
     */
    static void manyRotationsShareASlot(TimerQueue<Integer> fourSlots) {
        long start = fourSlots.time();
        long tick = fourSlots.tick();
        // Due ticks 1, 5, 9, 13, 17 share slot 1; 2 and 6 share slot 2; 12 and 4 share slot 0.
        long[] dueTicks = {17, 13, 9, 5, 1, 2, 6, 12, 4};
        for (int i = 0; i < dueTicks.length; i++) {
            fourSlots.schedule(start + dueTicks[i] * tick - i % tick, (int) dueTicks[i]);
        }
        for (long t = 0; t <= 17; t++) {
            assertThat(fourSlots.nextDeadline() - start)
                    .as("next deadline at tick %d", t)
                    .isEqualTo(nextDue(dueTicks, t) * tick);
            List<Integer> out = new ArrayList<>();
            fourSlots.poll(start + t * tick, h -> out.add(h.payload()), Integer.MAX_VALUE);
            long tt = t;
            assertThat(out).as("delivered at tick %d", t).allMatch(p -> p == tt);
            assertThat(out.size()).isEqualTo(count(dueTicks, t));
        }
        assertThat(fourSlots.isEmpty()).isTrue();
    }

    /**
     * A driver's life with a million far timers: the timers are filled in deadline order from
     * {@code farFrom} on (a fixed timeout issued at a steady rate), then 50,000 turns of one tick
     * (of 1 ms, or 10 ticks if the tick is finer) each schedule a timeout 5 turns out, ask the
     * next deadline and poll, with a lull of 1,000 turns every 1,000. Checks every delivery and
     * returns the nanoseconds the turns took, the filling excluded.
     */
    static long turnsAmongAMillionFarTimers(TimerQueue<Integer> queue, long farFrom) {
        long turn = Math.max(queue.tick(), 1_000_000);
        int far = 1_000_000;
        for (int i = 0; i < far; i++) {
            queue.schedule(queue.time() + farFrom + i * (farFrom / far), i);
        }
        int turns = 50_000;
        int[] delivered = {0};
        long now = queue.time();
        // The filling's garbage is collected first, so that the loop measures the wheel alone.
        System.gc();
        long started = System.nanoTime();
        for (int t = 1; t <= turns; t++) {
            now += t % 1_000 == 0 ? 1_000 * turn : turn;
            queue.schedule(now + 5 * turn, -t);
            assertThat(queue.nextDeadline() - now).isLessThanOrEqualTo(5 * turn);
            queue.poll(now, h -> delivered[0]++, Integer.MAX_VALUE);
        }
        long elapsed = System.nanoTime() - started;
        assertThat(delivered[0]).isBetween(turns - 5, turns);
        assertThat(queue.size()).isEqualTo(far + turns - delivered[0]);
        return elapsed;
    }

    private static long nextDue(long[] ticks, long from) {
        long min = Long.MAX_VALUE;
        for (long t : ticks) {
            if (t >= from) {
                min = Math.min(min, t);
            }
        }
        return min;
    }

    private static int count(long[] ticks, long t) {
        int n = 0;
        for (long x : ticks) {
            n += x == t ? 1 : 0;
        }
        return n;
    }
}
