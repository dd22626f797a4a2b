package dev.hourglass.timer;

import dev.hourglass.queue.TimerNode;
import dev.hourglass.queue.TimerQueue;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * A one-shot {@link Timeout}, which is also the node its queue links (see {@link TimerNode}) and
 * its own message to the driver: one object per timeout, 48 bytes with compressed pointers.
 *
 * <p>State word: a phase, PENDING → EXPIRED (a one-shot, as its run starts), PENDING → RUNNING (a
 * periodic run starts) → PENDING (re-armed), PENDING or RUNNING → CANCELLED; and bits: {@link
 * #LOCKED} while one thread reads or moves the deadline together with the phase (a few field
 * writes; others spin), {@link #QUEUED} while the node is on the intake (set by the same CAS that
 * changes the phase, so it is never pushed twice at once; the driver clears it when it takes the
 * node, unless the phase is final by then: nothing pushes a final node again, so the bit stays and
 * the driver spends no read-modify-write on it), {@link #MOVED} when a reschedule came
 * during a periodic run, and two bits only the driver uses ({@link #DUE}, {@link #CLOSED}).
 *
 * <p>Deadline: stored once, in the node. A reschedule writes it under the lock; when it moves the
 * deadline later, nothing else happens: the queue delivers the node at its old place and the
 * driver, seeing the later deadline, files it again. When it moves it earlier, the node goes to the
 * driver. Costs on the caller's thread: schedule one exchange (plus the driver's counter), cancel
 * one CAS plus at most one exchange, a later reschedule one CAS (and, by a delay, a clock reading).
 *
 * <p>Thread-safety: the {@link Timeout} methods are safe from any thread; the rest is the driver's.
 */
class TimeoutNode extends TimerNode implements Timeout {

    static final int PENDING = 0;
    static final int RUNNING = 1;
    static final int EXPIRED = 2;
    static final int CANCELLED = 3;
    static final int PHASE = 3;
    static final int LOCKED = 4;
    static final int QUEUED = 8;
    static final int MOVED = 16;

    /** Driver-only: the node waits in the driver's list of timeouts due now. */
    static final int DUE = 32;

    /** Set with CANCELLED when closing the timer cancelled the node. */
    static final int CLOSED = 64;

    /**
     * In place of a delay: the caller gave the deadline itself ({@link #rescheduleAt}). Negative,
     * so no delay can be mistaken for it: {@link Delays} turns every delay into zero or more.
     */
    private static final long DELAY_UNKNOWN = -1;

    private static final VarHandle STATE;
    private static final VarHandle NEXT;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            STATE = lookup.findVarHandle(TimeoutNode.class, "state", int.class);
            NEXT = lookup.findVarHandle(TimeoutNode.class, "intakeNext", TimeoutNode.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile int state;

    /** The intake's link; see {@link Intake}. */
    @SuppressWarnings("unused") // through NEXT
    private TimeoutNode intakeNext;

    final Handoff driver;

    TimeoutNode(Handoff driver, TimerQueue<?> queue, Object task, long deadline, int state) {
        super(queue, task, deadline);
        this.driver = driver;
        // A plain write, not a volatile one (a full fence on x86, paid by every schedule): other
        // threads reach a new node only through the intake's exchange or the caller's own hand-off.
        // PENDING is 0, the field's default: nothing to write.
        if (state != PENDING) {
            STATE.set(this, state);
        }
    }

    /** 0 for a one-shot; positive for a fixed rate; negative (minus the delay) for a fixed delay. */
    long period() {
        return 0;
    }

    /** Whether the task hears of its cancellation: see {@link TaskKind}. */
    boolean notifiesCancel() {
        return false;
    }

    /** Runs the task once; its class was decided when it was scheduled (see {@link TaskKind}). */
    void runTask() throws Exception {
        ((Runnable) payload()).run();
    }

    // ---- the state word ----

    int state() {
        return state;
    }

    boolean casState(int expected, int next) {
        return STATE.compareAndSet(this, expected, next);
    }

    /**
     * Waits out another holder of the lock, then takes it if the phase is PENDING or RUNNING.
     * Returns the word it found; only for PENDING and RUNNING does the caller hold the lock and
     * must {@link #unlock} it.
     */
    int lock() {
        for (int spins = 0; ; spins++) {
            int s = state;
            if ((s & LOCKED) != 0) {
                backOff(spins);
            } else if (isFinal(s) || STATE.compareAndSet(this, s, s | LOCKED)) {
                return s;
            }
        }
    }

    /** Releases the lock, leaving the word {@code next} (without the lock bit). */
    void unlock(int next) {
        STATE.setRelease(this, next);
    }

    /** Sets or clears driver bits (DUE, QUEUED) without touching the rest; returns the old word. */
    int update(int set, int clear) {
        for (int spins = 0; ; spins++) {
            int s = state;
            if ((s & LOCKED) != 0) {
                backOff(spins);
            } else if (STATE.compareAndSet(this, s, (s | set) & ~clear)) {
                return s;
            }
        }
    }

    static boolean isFinal(int s) {
        int phase = s & PHASE;
        return phase == EXPIRED || phase == CANCELLED;
    }

    /** Waits for a holder of the lock; yields after a while in case the holder lost its CPU. */
    private static void backOff(int spins) {
        if (spins < 100) {
            Thread.onSpinWait();
        } else {
            Thread.yield();
        }
    }

    /** The deadline as another thread last wrote it. */
    long deadlineNow() {
        return deadlineOpaque();
    }

    /** Writes the deadline; callers hold the lock or own the node. */
    void deadline(long deadline) {
        setDeadline(deadline);
    }

    // ---- the intake's link ----

    TimeoutNode intakeNext() {
        return (TimeoutNode) NEXT.getAcquire(this);
    }

    void intakeNext(TimeoutNode next) {
        NEXT.setRelease(this, next);
    }

    // ---- the handle ----

    @Override
    public Object task() {
        return payload();
    }

    @Override
    public Timer timer() {
        return driver.timer();
    }

    @Override
    public boolean cancel() {
        boolean direct = driver.onDriverThread();
        for (int spins = 0; ; spins++) {
            int s = state;
            if ((s & LOCKED) != 0) {
                backOff(spins);
                continue;
            }
            if (isFinal(s)) {
                return false;
            }
            // Off the driver's thread the node goes on the intake, unless it is there already.
            int next = CANCELLED | (direct ? s & QUEUED : QUEUED) | (s & DUE);
            if (STATE.compareAndSet(this, s, next)) {
                if ((s & QUEUED) == 0) {
                    driver.handOver(this, false, false);
                }
                return true;
            }
        }
    }

    @Override
    public boolean reschedule(Duration delay) {
        return rescheduleNanos(Delays.nanos(delay, "delay"));
    }

    @Override
    public boolean reschedule(long delay, TimeUnit unit) {
        return rescheduleNanos(Delays.nanos(delay, unit, "delay"));
    }

    @Override
    public boolean rescheduleAt(long deadline) {
        return moveTo(deadline, DELAY_UNKNOWN);
    }

    private boolean rescheduleNanos(long delayNanos) {
        return moveTo(driver.nanoTime() + delayNanos, delayNanos);
    }

    /**
     * Moves the deadline to {@code wanted}, made of a clock reading plus {@code delayNanos} or, if
     * that is {@link #DELAY_UNKNOWN}, given by the caller: then a later move reads no clock, and an
     * earlier one reads it only when the driver must be told how soon (not when the driver's own
     * thread applies the move at once).
     */
    private boolean moveTo(long wanted, long delayNanos) {
        boolean direct = driver.onDriverThread();
        int s = lock();
        if (isFinal(s)) {
            return false;
        }
        long old = deadline();
        setDeadline(wanted);
        boolean running = (s & PHASE) == RUNNING;
        // Later: the driver meets the node at its old place and files it again. A running periodic
        // timeout is re-armed from this deadline when its run ends.
        boolean earlier = !running && wanted - old < 0;
        boolean handOver = earlier && (s & QUEUED) == 0;
        int next = s | (running ? MOVED : 0) | (handOver && !direct ? QUEUED : 0);
        unlock(next);
        if (!earlier) {
            return true;
        }
        if (handOver && direct) {
            // Applied at once on the driver's thread: how soon it is due does not matter.
            return driver.handOver(this, true, false);
        }
        boolean urgent = TimerDriver.isUrgent(delayNanos != DELAY_UNKNOWN ? delayNanos : wanted - driver.nanoTime());
        if (handOver) {
            boolean taken = driver.handOver(this, true, urgent);
            if (!urgent && deadlineNow() - wanted < 0) {
                // Moved sooner by another thread between the unlock and the push: it found the
                // node queued and hurried, perhaps a turn that came before the push. The push came
                // after that turn's take, so this read sees its deadline: hurry again.
                driver.hurry(this);
            }
            return taken;
        }
        if (urgent) {
            // On the intake already, where it might wait a nap: too long for its new deadline.
            driver.hurry(this);
        }
        return true;
    }

    @Override
    public boolean isCancelled() {
        return (state & PHASE) == CANCELLED;
    }

    @Override
    public boolean isExpired() {
        return (state & PHASE) == EXPIRED;
    }

    @Override
    public boolean isPeriodic() {
        return period() != 0;
    }

    @Override
    public long remaining(TimeUnit unit) {
        Objects.requireNonNull(unit, "unit");
        if (isCancelled()) {
            return 0;
        }
        return unit.convert(deadlineOpaque() - driver.nanoTime(), TimeUnit.NANOSECONDS);
    }

    @Override
    public String toString() {
        String[] names = {"pending", "running", "expired", "cancelled"};
        return "Timeout[" + names[state & PHASE] + (isPeriodic() ? ", periodic" : "") + ", task=" + payload() + "]";
    }
}
