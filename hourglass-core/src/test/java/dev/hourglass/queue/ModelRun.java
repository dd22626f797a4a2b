package dev.hourglass.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.LongFunction;

/**
 * One seeded run of random operations against a queue and a {@link QueueModel}, checking every
 * return value, the size and the next deadline after each step. Operations: schedule (deadlines
 * overdue, near, far and at the edge of the time window), cancel, reschedule earlier and later,
 * polls with and without limits (small steps, long jumps), re-entrant operations from inside the
 * consumer (re-arm, schedule, cancel, reschedule), clear, stale and foreign handles, and bad input
 * that must change nothing.
 *
 * <p>The seed is fixed by default so that CI is repeatable; {@code -Dhourglass.seed=N} replays a
 * run and {@code -Dhourglass.seed=random} explores. A failure names its seed and step.
 */
final class ModelRun {

    private final TimerQueue<Integer> queue;
    private final TimerQueue<Integer> foreign;
    private final QueueModel model;
    private final SplittableRandom random;
    private final long seed;
    private final ArrayDeque<TimerHandle<Integer>> stale = new ArrayDeque<>();
    private int nextPayload;
    private long step;
    private boolean jumps;

    ModelRun(
            LongFunction<TimerQueue<Integer>> factory,
            long start,
            long tick,
            WithinTickOrder order,
            long rangeTicks,
            long seed) {
        this.queue = factory.apply(start);
        this.foreign = factory.apply(start);
        this.model = new QueueModel(start, tick, order, rangeTicks);
        this.random = new SplittableRandom(seed);
        this.seed = seed;
    }

    /**
     * Adds polls that land up to about 2^63 ns past the wheel's current tick, which lags behind the
     * queue's time after a poll stopped at its limit (polls of limit 0 and cancels of the lagging
     * tick's timers make that frequent). Every pending deadline stays within {@code Long.MAX_VALUE}
     * of the queue's time, as the contract asks, and the model keeps its offsets small by moving
     * its origin before each poll.
     */
    ModelRun jumpsPastTheLaggingTick() {
        jumps = true;
        return this;
    }

    static long seed(long salt) {
        String property = System.getProperty("hourglass.seed");
        if (property == null) {
            return 0x5EED_0000L ^ salt;
        }
        if (property.equals("random")) {
            return new SplittableRandom().nextLong();
        }
        return Long.parseLong(property);
    }

    void run(int operations) {
        try {
            for (step = 0; step < operations; step++) {
                operation();
                check();
            }
        } catch (Throwable e) {
            throw new AssertionError(
                    "model divergence with seed " + seed + " (replay with -Dhourglass.seed=" + seed + ") at step "
                            + step + ", start " + model.start + ", model now " + model.now + ": " + e,
                    e);
        }
    }

    private void check() {
        assertThat(queue.size()).as("size").isEqualTo(model.size());
        assertThat(queue.time()).as("time").isEqualTo(model.start + model.now);
        long work = ((AbstractTimerQueue<?, ?>) queue).nextWork() - queue.time();
        if (model.size() > 0) {
            assertThat(queue.nextDeadline() - model.start).as("next deadline").isEqualTo(model.nextDeadline());
            assertThat(work)
                    .as("next work at or before the next deadline")
                    .isLessThanOrEqualTo(queue.nextDeadline() - queue.time());
        } else {
            assertThat(queue.nextDeadline())
                    .as("next deadline of the empty queue")
                    .isEqualTo(queue.time() + Long.MAX_VALUE);
            assertThat(work).as("next work of the empty queue").isEqualTo(Long.MAX_VALUE);
        }
    }

    private void operation() {
        int pending = model.size();
        int dice = random.nextInt(1000);
        if (dice < (pending > 3_000 ? 150 : 330)) {
            schedule();
        } else if (dice < 480) {
            cancel();
        } else if (dice < 640) {
            reschedule();
        } else if (dice < 990) {
            poll();
        } else if (dice < 999) {
            badInput();
        } else if (jumps && random.nextInt(3) != 0) {
            cancelTheLaggingTick();
        } else if (random.nextInt(20) == 0) {
            clear();
        }
    }

    /** A deadline offset: mostly near, some overdue, some far, a few at the edge of the window. */
    private long deadline() {
        long tick = model.tick;
        long now = model.now;
        int kind = random.nextInt(100);
        long delay;
        if (kind < 10) {
            delay = -random.nextLong(0, 50 * tick + 1);
        } else if (kind < 60) {
            delay = random.nextLong(0, 64 * tick);
        } else if (kind < 85) {
            delay = random.nextLong(0, 4_096 * tick);
        } else if (kind < 95) {
            delay = random.nextLong(0, 1L << 20) * tick + random.nextLong(tick);
        } else if (kind < 98) {
            delay = random.nextLong(0, 1L << 40);
        } else {
            delay = Long.MAX_VALUE - now - random.nextLong(0, 3 * tick);
        }
        if (model.rangeTicks != Long.MAX_VALUE && random.nextInt(50) != 0) {
            delay = Math.min(delay, random.nextLong(0, model.rangeTicks * tick + 1));
        }
        return Math.max(now + delay, floor());
    }

    /** The earliest deadline to make: the fixed runs stay near the start, jumping runs near now. */
    private long floor() {
        return jumps ? model.now - (1L << 40) : -(1L << 40);
    }

    /** Cancels what the next poll would deliver first, so that a wheel's current tick lags empty. */
    private void cancelTheLaggingTick() {
        for (TimerHandle<Integer> handle : model.dueFirst()) {
            assertThat(queue.cancel(handle)).as("cancel a due timer").isTrue();
            model.remove(model.get(handle));
            retire(handle);
        }
    }

    private void schedule() {
        long deadline = deadline();
        Integer payload = nextPayload++;
        if (model.beyondRange(deadline)) {
            assertThatThrownBy(() -> queue.schedule(model.start + deadline, payload))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("range");
            return;
        }
        TimerHandle<Integer> handle = queue.schedule(model.start + deadline, payload);
        assertThat(handle.isPending()).isTrue();
        assertThat(handle.payload()).isEqualTo(payload);
        assertThat(handle.deadline()).isEqualTo(model.start + deadline);
        model.add(handle, deadline);
    }

    private void cancel() {
        if (model.size() > 0 && random.nextInt(8) != 0) {
            QueueModel.Timer t = model.randomPending(random);
            assertThat(queue.cancel(t.handle)).as("cancel pending").isTrue();
            assertThat(t.handle.isPending()).isFalse();
            model.remove(t);
            retire(t.handle);
        } else if (!stale.isEmpty()) {
            TimerHandle<Integer> handle = randomStale();
            assertThat(queue.cancel(handle)).as("cancel stale").isFalse();
        }
    }

    private void reschedule() {
        if (model.size() > 0 && random.nextInt(10) != 0) {
            QueueModel.Timer t = model.randomPending(random);
            long deadline = random.nextBoolean() ? t.deadline - random.nextLong(0, 100 * model.tick) : deadline();
            deadline = Math.max(deadline, floor());
            long d = deadline;
            if (model.beyondRange(d)) {
                long before = t.handle.deadline();
                assertThatThrownBy(() -> queue.reschedule(t.handle, model.start + d))
                        .isInstanceOf(IllegalArgumentException.class);
                assertThat(t.handle.deadline()).isEqualTo(before);
                return;
            }
            queue.reschedule(t.handle, model.start + d);
            assertThat(t.handle.deadline()).isEqualTo(model.start + d);
            assertThat(t.handle.isPending()).isTrue();
            model.move(t, d);
        } else if (!stale.isEmpty()) {
            TimerHandle<Integer> handle = randomStale();
            // A deadline in range, so that only the staleness is wrong: inside a catching-up poll
            // now may lie beyond a bounded wheel's range from its current tick.
            long d = model.beyondRange(model.now) ? model.current * model.tick : model.now;
            assertThatThrownBy(() -> queue.reschedule(handle, model.start + d))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("stale");
        }
    }

    private void poll() {
        long tick = model.tick;
        int kind = random.nextInt(100);
        long advance;
        if (jumps) {
            model.rebase();
        }
        if (jumps && kind < 6) {
            advance = jump();
        } else if (kind < 30) {
            advance = 0;
        } else if (kind < 80) {
            advance = random.nextLong(0, 4 * tick);
        } else if (kind < 95) {
            advance = random.nextLong(0, 300 * tick);
        } else if (kind < 99) {
            advance = random.nextLong(0, 100_000 * tick);
        } else {
            advance = random.nextLong(0, 1L << 42);
        }
        int limit;
        int limitKind = random.nextInt(10);
        if (limitKind == 0 || (jumps && kind < 6 && limitKind < 5)) {
            limit = 0;
        } else if (limitKind < 4) {
            limit = random.nextInt(1, 8);
        } else {
            limit = Integer.MAX_VALUE;
        }
        if (jumps) {
            advance = withinReach(advance);
        }
        long work = ((AbstractTimerQueue<?, ?>) queue).nextWork();
        boolean beforeWork = advance < work - queue.time();
        model.now += advance;
        long now = model.now;
        boolean reentrant = random.nextInt(4) == 0;
        int[] count = {0};
        int returned = queue.poll(
                model.start + now,
                handle -> {
                    assertThat(handle.isPending())
                            .as("delivered handle is no longer pending")
                            .isFalse();
                    assertThat(handle.deadline() - (model.start + now))
                            .as("never early")
                            .isLessThanOrEqualTo(0);
                    model.deliver(handle);
                    count[0]++;
                    if (!reentrant || !reenter(handle)) {
                        retire(handle);
                    }
                },
                limit);
        assertThat(returned).as("poll count").isEqualTo(count[0]);
        if (beforeWork) {
            // A driver sleeps until the next work: a poll before it must have nothing to deliver.
            assertThat(returned)
                    .as("delivered before the next work time " + work)
                    .isZero();
        }
        assertThat(returned).isLessThanOrEqualTo(limit);
        model.endPoll(returned, limit);
    }

    /**
     * A poll of up to about 2^62 + 2^61 ns, landing up to about 2^63 + 2^62 past a current tick that
     * lags, but never more than {@code Long.MAX_VALUE} past a pending deadline; now is within a tick
     * of offset 0 here, so offsets up to now + {@code Long.MAX_VALUE} do not overflow.
     */
    private long jump() {
        return random.nextLong(1L << 61, (1L << 62) + (1L << 61));
    }

    /** Caps a poll's advance so that no pending deadline falls more than Long.MAX_VALUE behind. */
    private long withinReach(long advance) {
        if (model.size() == 0) {
            return advance;
        }
        long behind = model.minDeadline() - model.now;
        return behind >= 0 ? advance : Math.min(advance, Long.MAX_VALUE + behind);
    }

    /**
     * Operations from inside the consumer, the delivered timer included; returns true if it re-armed
     * the delivered timer.
     */
    private boolean reenter(TimerHandle<Integer> handle) {
        switch (random.nextInt(6)) {
            case 0:
                long d = model.now + random.nextLong(0, 40 * model.tick);
                if (!model.beyondRange(d)) {
                    queue.reschedule(handle, model.start + d);
                    model.rearm(handle, d);
                    return true;
                }
                break;
            case 1:
                assertThat(queue.cancel(handle))
                        .as("cancel the delivered timer")
                        .isFalse();
                break;
            case 2:
                schedule();
                break;
            case 3:
                cancel();
                break;
            case 4:
                reschedule();
                break;
            default:
                long early = model.now - random.nextLong(0, 3 * model.tick);
                Integer payload = nextPayload++;
                if (model.beyondRange(early)) {
                    // Now lies beyond a bounded wheel's range while the poll catches up.
                    assertThatThrownBy(() -> queue.schedule(model.start + early, payload))
                            .isInstanceOf(IllegalArgumentException.class)
                            .hasMessageContaining("range");
                } else {
                    model.add(queue.schedule(model.start + early, payload), early);
                }
                break;
        }
        return false;
    }

    private void clear() {
        Set<TimerHandle<Integer>> expected = new HashSet<>(model.clear());
        List<TimerHandle<Integer>> cleared = new ArrayList<>();
        int count = queue.clear(h -> {
            assertThat(h.isPending()).isFalse();
            cleared.add(h);
        });
        assertThat(count).isEqualTo(expected.size());
        assertThat(new HashSet<>(cleared)).isEqualTo(expected);
        assertThat(cleared).hasSize(expected.size());
        cleared.forEach(this::retire);
    }

    private void badInput() {
        long sizeBefore = queue.size();
        switch (random.nextInt(5)) {
            case 0:
                assertThatThrownBy(() -> queue.schedule(model.start + model.now, null))
                        .isInstanceOf(NullPointerException.class);
                break;
            case 1:
                assertThatThrownBy(() -> queue.poll(model.start + model.now, h -> fail("delivered"), -1))
                        .isInstanceOf(IllegalArgumentException.class);
                break;
            case 2:
                assertThatThrownBy(() -> queue.poll(model.start + model.now - 1, h -> fail("delivered"), 5))
                        .isInstanceOf(IllegalArgumentException.class);
                break;
            case 3:
                TimerHandle<Integer> other = foreign.schedule(foreign.time(), -1);
                assertThatThrownBy(() -> queue.cancel(other)).isInstanceOf(IllegalArgumentException.class);
                assertThatThrownBy(() -> queue.reschedule(other, model.start))
                        .isInstanceOf(IllegalArgumentException.class);
                assertThat(other.isPending()).isTrue();
                foreign.cancel(other);
                break;
            default:
                assertThatThrownBy(() -> queue.reschedule(null, 0)).isInstanceOf(NullPointerException.class);
                break;
        }
        assertThat(queue.size()).isEqualTo(sizeBefore);
    }

    private void retire(TimerHandle<Integer> handle) {
        if (stale.size() == 64) {
            stale.removeFirst();
        }
        stale.addLast(handle);
    }

    private TimerHandle<Integer> randomStale() {
        int skip = random.nextInt(stale.size());
        for (TimerHandle<Integer> h : stale) {
            if (skip-- == 0) {
                return h;
            }
        }
        throw new AssertionError();
    }
}
