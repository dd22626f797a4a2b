package dev.hourglass.bench.queue;

import java.util.concurrent.TimeUnit;
import org.agrona.DeadlineTimerWheel;

/**
 * A {@link BenchQueue} over Agrona's {@link DeadlineTimerWheel}, the single-threaded anchor. It has
 * no reschedule, so a reschedule is a cancel plus a schedule; its poll advances at most one tick
 * per call, so {@link #pollAll} calls it until a call stays on its spoke.
 *
 * <p>Complexity: schedule scans the deadline's spoke for a free cell, O(timers per spoke); cancel
 * O(1); a poll scans one spoke. Ordering: by tick, none within a tick. Thread-safety: none.
 */
final class AgronaBenchQueue implements BenchQueue {

    private final DeadlineTimerWheel wheel;
    private final long[] ids;
    private final DeadlineTimerWheel.TimerHandler onFire = this::fired;
    private int fired;

    AgronaBenchQueue(long startTime, long tickNanos, int ticksPerWheel, int capacity) {
        this.wheel = new DeadlineTimerWheel(TimeUnit.NANOSECONDS, startTime, tickNanos, ticksPerWheel);
        this.ids = new long[capacity];
    }

    @Override
    public void schedule(int slot, long deadline) {
        ids[slot] = wheel.scheduleTimer(deadline);
    }

    @Override
    public void reschedule(int slot, long deadline) {
        wheel.cancelTimer(ids[slot]);
        ids[slot] = wheel.scheduleTimer(deadline);
    }

    @Override
    public void cancel(int slot) {
        wheel.cancelTimer(ids[slot]);
    }

    @Override
    public int pollAll(long now) {
        fired = 0;
        // each poll scans the current spoke, then moves on one tick if now is past it; the spoke it
        // moves to may hold timers already due, so poll until a poll stays on its spoke
        long tickEnd;
        do {
            tickEnd = wheel.currentTickTime();
            wheel.poll(now, onFire, Integer.MAX_VALUE);
        } while (wheel.currentTickTime() != tickEnd);
        return fired;
    }

    @Override
    public long size() {
        return wheel.timerCount();
    }

    private boolean fired(TimeUnit unit, long now, long timerId) {
        fired++;
        return true;
    }
}
