package dev.hourglass.queue;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeSet;

/**
 * The reference a queue is checked against: the contract written as plainly as possible, with
 * unwrapped times. Deadlines and now are offsets from the queue's start time, in longs that never
 * wrap; the queue sees {@code start + offset}, which does.
 *
 * <p>For wheels it models the current tick: a timer belongs to tick {@code max(ceil(offset /
 * tick), current)}; a delivery moves the current tick to the delivered timer's tick, and a poll
 * ends at the first tick still holding a due timer, or at the tick of {@code now}.
 */
final class QueueModel {

    static final class Timer {
        final TimerHandle<Integer> handle;
        long deadline;
        long tick;
        long seq;
        int listIndex;

        Timer(TimerHandle<Integer> handle) {
            this.handle = handle;
        }

        @Override
        public String toString() {
            return "Timer[deadline=" + deadline + ", tick=" + tick + ", seq=" + seq + ", handle=" + handle + "]";
        }
    }

    /** The queue time of offset 0; moved forward by {@link #rebase()} so that offsets stay small. */
    long start;

    final long tick;
    final WithinTickOrder order;
    final long rangeTicks;

    long now;
    long current;
    private long nextSeq;

    private final Map<TimerHandle<Integer>, Timer> pending = new IdentityHashMap<>();
    private final List<Timer> pendingList = new ArrayList<>();
    /** Exact: every timer by (deadline, seq). Wheels: timers after the current tick by (tick, within-tick key). */
    private final NavigableSet<Timer> future;
    /** Wheels only: timers of the current tick, by within-tick key. */
    private final NavigableSet<Timer> currentTick;

    QueueModel(long start, long tick, WithinTickOrder order, long rangeTicks) {
        this.start = start;
        this.tick = tick;
        this.order = order;
        this.rangeTicks = rangeTicks;
        Comparator<Timer> bySeq = Comparator.comparingLong(t -> t.seq);
        Comparator<Timer> withinTick = order == WithinTickOrder.DEADLINE || order == WithinTickOrder.EXACT
                ? Comparator.<Timer>comparingLong(t -> t.deadline).thenComparing(bySeq)
                : bySeq;
        this.future = new TreeSet<>(
                order == WithinTickOrder.EXACT
                        ? withinTick
                        : Comparator.<Timer>comparingLong(t -> t.tick).thenComparing(withinTick));
        this.currentTick = new TreeSet<>(withinTick);
    }

    boolean exact() {
        return order == WithinTickOrder.EXACT;
    }

    static long ceilDiv(long x, long y) {
        return -Math.floorDiv(-x, y);
    }

    long tickOf(long deadline) {
        return ceilDiv(deadline, tick);
    }

    long nowTick() {
        return Math.floorDiv(now, tick);
    }

    /** True if the structure must refuse this deadline as beyond its range. */
    boolean beyondRange(long deadline) {
        return rangeTicks != Long.MAX_VALUE && tickOf(deadline) - rangeTicks > current;
    }

    int size() {
        return pending.size();
    }

    Timer get(TimerHandle<Integer> handle) {
        return pending.get(handle);
    }

    Timer randomPending(java.util.SplittableRandom random) {
        return pendingList.get(random.nextInt(pendingList.size()));
    }

    void add(TimerHandle<Integer> handle, long deadline) {
        Timer t = new Timer(handle);
        pending.put(handle, t);
        t.listIndex = pendingList.size();
        pendingList.add(t);
        place(t, deadline);
    }

    private void place(Timer t, long deadline) {
        t.deadline = deadline;
        t.seq = nextSeq++;
        if (exact()) {
            future.add(t);
        } else {
            t.tick = Math.max(tickOf(deadline), current);
            (t.tick == current ? currentTick : future).add(t);
        }
    }

    private void unplace(Timer t) {
        if (!future.remove(t)) {
            assertThat(currentTick.remove(t)).as("model lost %s", t).isTrue();
        }
    }

    void move(Timer t, long deadline) {
        unplace(t);
        place(t, deadline);
    }

    void remove(Timer t) {
        unplace(t);
        pending.remove(t.handle);
        Timer last = pendingList.remove(pendingList.size() - 1);
        if (last != t) {
            last.listIndex = t.listIndex;
            pendingList.set(t.listIndex, last);
        }
    }

    /** Re-arms a delivered timer from inside the consumer. */
    void rearm(TimerHandle<Integer> handle, long deadline) {
        add(handle, deadline);
    }

    /** The timers the queue may deliver next, best first; empty if none is due at {@code now}. */
    private Timer next() {
        if (exact()) {
            Timer first = future.isEmpty() ? null : future.first();
            return first != null && first.deadline <= now ? first : null;
        }
        if (!currentTick.isEmpty()) {
            return currentTick.first();
        }
        Timer first = future.isEmpty() ? null : future.first();
        return first != null && first.tick <= nowTick() ? first : null;
    }

    /** Checks that the queue may deliver {@code handle} now, and removes it. */
    void deliver(TimerHandle<Integer> handle) {
        Timer t = pending.get(handle);
        assertThat(t).as("delivered a timer that is not pending: %s", handle).isNotNull();
        Timer expected = next();
        assertThat(expected)
                .as("delivered %s but nothing is due at now=%d", t, now)
                .isNotNull();
        if (exact()) {
            assertThat(t).as("delivery order at now=%d", now).isSameAs(expected);
        } else {
            if (expected.tick != current) {
                advanceTo(expected.tick);
            }
            assertThat(currentTick)
                    .as("delivered %s outside the due tick %d at now=%d", t, current, now)
                    .contains(t);
            if (order != WithinTickOrder.ANY) {
                assertThat(t).as("order within tick %d at now=%d", current, now).isSameAs(currentTick.first());
            }
        }
        remove(t);
    }

    private void advanceTo(long tick) {
        assertThat(currentTick).isEmpty();
        current = tick;
        while (!future.isEmpty() && future.first().tick <= tick) {
            Timer t = future.pollFirst();
            currentTick.add(t);
        }
    }

    /** Checks the end of a poll that delivered {@code count} of {@code limit}. */
    void endPoll(int count, int limit) {
        Timer due = next();
        if (count < limit) {
            assertThat(due)
                    .as("poll returned %d < limit %d but a timer is still due at now=%d", count, limit, now)
                    .isNull();
        }
        if (exact()) {
            return;
        }
        // A wheel passes over empty ticks even at its limit: it stops at the first tick that still
        // holds a due timer, or at the tick of now.
        if (due == null) {
            advanceTo(nowTick());
        } else if (due.tick != current) {
            advanceTo(due.tick);
        }
    }

    /** The earliest delivery time, as an offset; only if not empty. */
    long nextDeadline() {
        if (exact()) {
            return future.first().deadline;
        }
        return boundary(currentTick.isEmpty() ? future.first().tick : current);
    }

    /** The time of a tick boundary, capped at now + Long.MAX_VALUE as the queues cap it. */
    private long boundary(long tickIndex) {
        BigInteger exact = BigInteger.valueOf(tickIndex).multiply(BigInteger.valueOf(tick));
        BigInteger cap = BigInteger.valueOf(now).add(BigInteger.valueOf(Long.MAX_VALUE));
        return exact.min(cap).longValue();
    }

    /** The earliest pending deadline, as an offset; only if not empty. */
    long minDeadline() {
        long min = Long.MAX_VALUE;
        for (Timer t : pendingList) {
            min = Math.min(min, t.deadline);
        }
        return min;
    }

    /** The pending timers a poll at {@code now} would deliver first: the current tick's, or the due ones. */
    List<TimerHandle<Integer>> dueFirst() {
        List<TimerHandle<Integer>> due = new ArrayList<>();
        for (Timer t : exact() ? future : currentTick) {
            if (exact() && t.deadline > now) {
                break;
            }
            due.add(t.handle);
        }
        return due;
    }

    /**
     * Moves offset 0 to the start of the tick of now, so that now lies within one tick of it;
     * every offset shifts by the same whole number of ticks, which changes nothing the queue sees.
     */
    void rebase() {
        long ticks = Math.floorDiv(now, tick);
        long shift = ticks * tick;
        start += shift;
        now -= shift;
        current -= ticks;
        // A uniform shift keeps the sets' order, so their keys may change in place.
        for (Timer t : pendingList) {
            t.deadline -= shift;
            t.tick -= ticks;
        }
    }

    List<TimerHandle<Integer>> clear() {
        List<TimerHandle<Integer>> all = new ArrayList<>(pending.keySet());
        pending.clear();
        pendingList.clear();
        future.clear();
        currentTick.clear();
        return all;
    }
}
