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
 * <p>State machine: PENDING → EXPIRED (a one-shot, as its run starts); PENDING → RUNNING (a
 * periodic run starts) → PENDING (re-armed when it ends); PENDING or RUNNING → CANCELLED (any
 * thread, or close). Whoever reads or moves the deadline together with the state first sets the
 * {@link #LOCKED} bit for a few field writes: the driver when it fires or re-arms, a caller when it
 * reschedules. Others spin those few instructions away, which makes cancel and reschedule exact: a
 * true cancel means the task never starts again, and a reschedule during a periodic run is never
 * overwritten by the re-arm that follows it.
 *
 * <p>Deadlines: {@link #deadline} is the wanted next run; the driver keeps the queue entry at
 * {@link #armed}, never later than the deadline but possibly earlier. A reschedule to a later time
 * only writes the deadline: when the entry comes due the driver sees the later wish and moves it, so
 * a heartbeat that pushes its timeout back a million times sends no message at all. A reschedule to
 * an earlier time than {@link #armed} sends one. The driver publishes {@link #armed} before it reads
 * the deadline, and a caller writes the deadline before it reads {@link #armed}, so one of the two
 * always sees the other's write.
 *
 * <p>Complexity: O(1) per operation on the caller's side. Ordering: see {@link Timeout}.
 *
 * <p>Thread-safety: safe from any thread; fields marked owner-only are touched by the driver alone.
 */
final class TimeoutTask implements Timeout, Runnable {

    static final int PENDING = 0;
    static final int RUNNING = 1;
    static final int EXPIRED = 2;
    static final int CANCELLED = 3;

    /** Set on PENDING or RUNNING while one thread reads or writes the deadline with the state. */
    static final int LOCKED = 4;

    private static final VarHandle STATE;
    private static final VarHandle QUEUED;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            STATE = lookup.findVarHandle(TimeoutTask.class, "state", int.class);
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

    /** The wanted time of the next run; written only under the lock. */
    volatile long deadline;

    /** The time of the queue entry, published by the driver for the reschedule check. */
    volatile long armed;

    /** Guarded by the lock: a reschedule happened during the current periodic run. */
    private boolean moved;

    /** Set while on the inbox, so that a timeout is pushed at most once per driver turn. */
    private volatile boolean queued;

    /** The inbox link. */
    TimeoutTask next;

    /** How many messages the inbox held once this one was pushed on top. */
    int inboxDepth;

    /** Owner-only: the queue entry, null until the driver first schedules it. */
    TimerHandle<TimeoutTask> handle;

    /** The deadline of the run handed to the executor, for its lateness and its next run. */
    long firedDeadline;

    TimeoutTask(TimerCore core, Runnable task, long deadline, long period) {
        this.core = core;
        this.task = task;
        this.period = period;
        this.deadline = deadline;
        this.armed = deadline;
    }

    /** The state without the lock bit. */
    int state() {
        return state & ~LOCKED;
    }

    /**
     * Waits out another holder of the lock, then takes it if the timeout is PENDING or RUNNING.
     * Returns the state it found; only for PENDING and RUNNING does the caller hold the lock and
     * must {@link #unlock} it.
     */
    int lock() {
        for (int spins = 0; ; spins++) {
            int s = state;
            if ((s & LOCKED) != 0) {
                backOff(spins);
            } else if (s == EXPIRED || s == CANCELLED || STATE.compareAndSet(this, s, s | LOCKED)) {
                return s;
            }
        }
    }

    /** Waits for a holder of the lock; yields after a while in case the holder lost its CPU. */
    private static void backOff(int spins) {
        if (spins < 100) {
            Thread.onSpinWait();
        } else {
            Thread.yield();
        }
    }

    /** Releases the lock, leaving the timeout in {@code next}. */
    void unlock(int next) {
        state = next;
    }

    /** Under the lock: marks the start of a periodic run, which no reschedule has moved yet. */
    void startRun() {
        moved = false;
        unlock(RUNNING);
    }

    /** Under the lock: tells whether a reschedule during the run already chose the next deadline. */
    boolean movedDuringRun() {
        return moved;
    }

    /** Cancels a PENDING or RUNNING timeout; returns false if it had expired or was cancelled. */
    boolean markCancelled() {
        for (int spins = 0; ; spins++) {
            int s = state;
            if ((s & LOCKED) != 0) {
                backOff(spins);
            } else if (s == EXPIRED || s == CANCELLED) {
                return false;
            } else if (STATE.compareAndSet(this, s, CANCELLED)) {
                return true;
            }
        }
    }

    /** Claims the right to push onto the inbox; false if already on it. */
    boolean markQueued() {
        return QUEUED.compareAndSet(this, false, true);
    }

    void clearQueued() {
        queued = false;
    }

    @Override
    public Runnable task() {
        return task;
    }

    @Override
    public boolean cancel() {
        if (!markCancelled()) {
            return false;
        }
        core.cancelled(this);
        return true;
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
        int s = lock();
        if (s != PENDING && s != RUNNING) {
            return false;
        }
        deadline = wanted;
        if (s == RUNNING) {
            moved = true;
        }
        unlock(s);
        // Read after the write: if the driver armed the entry later than wanted without having seen
        // this deadline, this read sees its entry and the message below corrects it.
        if (wanted - armed < 0) {
            return core.submit(this, wanted);
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
        if (state == CANCELLED) {
            return 0;
        }
        return unit.convert(deadline - core.clock.nanoTime(), TimeUnit.NANOSECONDS);
    }

    /** Runs the task on an executor's thread; not for users (the interface they see is Timeout). */
    @Override
    public void run() {
        core.runOnExecutor(this);
    }

    @Override
    public String toString() {
        String[] names = {"pending", "running", "expired", "cancelled"};
        return "Timeout[" + names[state()] + (period == 0 ? "" : ", periodic") + ", task=" + task + "]";
    }
}
