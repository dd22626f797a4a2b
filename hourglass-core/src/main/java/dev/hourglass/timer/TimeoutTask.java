package dev.hourglass.timer;

import dev.hourglass.queue.TimerHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * A {@link Timeout} and its own message to the driver: a schedule, cancel or reschedule pushes the
 * timeout itself onto the driver's inbox (at most once until the driver takes it), so no operation
 * allocates beyond this object.
 *
 * <p>State machine: PENDING → FIRING (driver only, never runs user code) → EXPIRED (one-shot) or
 * back to PENDING (periodic, or a lazily moved deadline); PENDING → CANCELLED (any thread). A caller
 * that meets FIRING spins for the few instructions until it resolves, which makes cancel and
 * reschedule exact: a true cancel means the task never runs again.
 *
 * <p>Deadlines: {@link #deadline} is the wanted next run, written by any thread; the driver keeps the
 * queue entry at {@link #armed}. A reschedule to a later time only writes {@link #deadline}: when
 * the entry comes due the driver sees the later wish and moves it, so a heartbeat that pushes its
 * timeout back a million times sends no message at all.
 *
 * <p>Complexity: O(1) per operation on the caller's side. Ordering: see {@link Timeout}.
 *
 * <p>Thread-safety: safe from any thread; fields marked owner-only are touched by the driver alone.
 */
final class TimeoutTask implements Timeout, Runnable {

    static final int PENDING = 0;
    static final int FIRING = 1;
    static final int EXPIRED = 2;
    static final int CANCELLED = 3;

    private static final VarHandle STATE;
    private static final VarHandle DEADLINE;
    private static final VarHandle QUEUED;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            STATE = lookup.findVarHandle(TimeoutTask.class, "state", int.class);
            DEADLINE = lookup.findVarHandle(TimeoutTask.class, "deadline", long.class);
            QUEUED = lookup.findVarHandle(TimeoutTask.class, "queued", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final TimerCore core;
    final Runnable task;

    /** 0 for a one-shot; positive for a fixed rate; negative (minus the delay) for a fixed delay. */
    final long period;

    private volatile int state;

    /** The wanted time of the next run. */
    volatile long deadline;

    /** The deadline of the queue entry, published by the driver for the lazy reschedule check. */
    volatile long armed;

    /** True from the start of a periodic run on an executor until it has asked to be re-armed. */
    volatile boolean running;

    /** Set while on the inbox, so that a timeout is pushed at most once per driver turn. */
    private volatile boolean queued;

    /** The inbox link. */
    TimeoutTask next;

    /** Owner-only: the queue entry, null until the driver first schedules it. */
    TimerHandle<TimeoutTask> handle;

    /** Owner-only: the deadline of the run handed to the executor, for its lateness. */
    long firedDeadline;

    TimeoutTask(TimerCore core, Runnable task, long deadline, long period) {
        this.core = core;
        this.task = task;
        this.period = period;
        this.deadline = deadline;
        this.armed = deadline;
    }

    int state() {
        return state;
    }

    boolean casState(int expected, int next) {
        return STATE.compareAndSet(this, expected, next);
    }

    void setState(int next) {
        state = next;
    }

    boolean casDeadline(long expected, long next) {
        return DEADLINE.compareAndSet(this, expected, next);
    }

    /** Claims the right to push onto the inbox; false if already on it. */
    boolean markQueued() {
        return QUEUED.compareAndSet(this, false, true);
    }

    void clearQueued() {
        queued = false;
    }

    /** Waits out the driver's brief FIRING step and returns the state after it. */
    private int settledState() {
        int s;
        while ((s = state) == FIRING) {
            Thread.onSpinWait();
        }
        return s;
    }

    @Override
    public Runnable task() {
        return task;
    }

    @Override
    public boolean cancel() {
        while (true) {
            int s = settledState();
            if (s != PENDING) {
                return false;
            }
            if (casState(PENDING, CANCELLED)) {
                core.cancelled(this);
                return true;
            }
        }
    }

    @Override
    public boolean reschedule(Duration delay) {
        return rescheduleNanos(TimerCore.nanos(delay, "delay"));
    }

    @Override
    public boolean reschedule(long delay, TimeUnit unit) {
        return rescheduleNanos(TimerCore.nanos(delay, unit, "delay"));
    }

    private boolean rescheduleNanos(long delayNanos) {
        long wanted = core.clock.nanoTime() + delayNanos;
        if (settledState() != PENDING) {
            return false;
        }
        deadline = wanted;
        // The driver may have fired between the check and the write; only if the timeout is still
        // pending (or was moved and re-armed) did the write count.
        int s = settledState();
        if (s != PENDING) {
            return false;
        }
        if (wanted - armed < 0) {
            core.submit(this, wanted);
        }
        return true;
    }

    @Override
    public boolean isCancelled() {
        return state == CANCELLED;
    }

    @Override
    public boolean isExpired() {
        return state == EXPIRED;
    }

    @Override
    public boolean isPeriodic() {
        return period != 0;
    }

    @Override
    public long remaining(TimeUnit unit) {
        Objects.requireNonNull(unit, "unit");
        return unit.convert(deadline - core.clock.nanoTime(), TimeUnit.NANOSECONDS);
    }

    /** Runs the task on an executor's thread; not for users (the interface they see is Timeout). */
    @Override
    public void run() {
        core.runOnExecutor(this);
    }

    @Override
    public String toString() {
        String[] names = {"pending", "firing", "expired", "cancelled"};
        return "Timeout[" + names[state] + (period == 0 ? "" : ", periodic") + ", task=" + task + "]";
    }
}
