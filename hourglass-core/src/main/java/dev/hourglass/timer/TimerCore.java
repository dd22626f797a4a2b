package dev.hourglass.timer;

import dev.hourglass.queue.TimerHandle;
import dev.hourglass.queue.TimerQueue;
import dev.hourglass.time.NanoClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * What both drivers share: the {@link Timer} API on the callers' side, and on the driver's own
 * thread the queue, the inbox of messages from other threads and the firing of due tasks. A driver
 * supplies only its thread, how it sleeps and how it is woken.
 *
 * <p>Hand-off: other threads push timeouts onto a lock-free (Treiber) stack that the driver takes
 * whole in one exchange; calls made on the driver's own thread apply to the queue directly and
 * touch no inbox. The driver is woken when a new deadline is earlier than the one it sleeps
 * towards, when it sleeps with nothing to wait for, and once per {@link #INBOX_BATCH} messages, so
 * that cancellations and later deadlines never pile up until a far deadline.
 *
 * <p>Entries: the driver places a timeout's queue entry at its deadline or earlier, never later; an
 * entry that comes due early is moved to the deadline instead of running. So a reschedule to a later
 * time needs no message, a deadline already reached goes into a wheel's current tick instead of
 * waiting for the next boundary, and a bounded wheel holds a far deadline at the edge of its range
 * until it can hold the real one.
 *
 * <p>Complexity: a hand-off is one CAS on the caller's side; the driver's work is the queue's.
 *
 * <p>Ordering: due tasks run in the queue's order.
 *
 * <p>Thread-safety: the public side is safe from any thread; methods marked owner-only run on the
 * driver's thread.
 */
abstract class TimerCore implements Timer {

    /**
     * A sleeping driver is woken to apply the inbox each time it holds this many more messages; a
     * power of two.
     */
    static final int INBOX_BATCH = 1024;

    final NanoClock clock;
    final TimerQueue<TimeoutTask> queue;
    private final Executor executor;
    private final Timer.ExceptionHandler exceptionHandler;
    private final long maxPending;

    /** The queue's start and tick, which place a wheel's tick boundaries. */
    private final long queueStart;

    private final long tick;

    /** Messages from other threads: a lock-free stack linked through {@link TimeoutTask#next}. */
    private final AtomicReference<TimeoutTask> inbox = new AtomicReference<>();

    private final LongAdder scheduled = new LongAdder();
    private final LongAdder fired = new LongAdder();
    private final LongAdder cancelledCount = new LongAdder();
    private final AtomicLong pending = new AtomicLong();
    private final LatenessHistogram lateness = new LatenessHistogram();

    /** The driver's thread, once it runs. */
    volatile Thread owner;

    /** True while the driver sleeps or is about to; {@link #wakeAt} is meaningful only then. */
    private volatile boolean sleeping;

    private volatile boolean sleepingIdle;
    private volatile long wakeAt;

    private volatile boolean closed;
    private volatile boolean terminated;
    private List<Timeout> neverRan;

    /** Owner-only: the current time of the turn being run. */
    private long now;

    /**
     * Owner-only: a time at or before a wheel's current tick boundary plus one tick, from which
     * entries are placed: the turn's time between polls, the delivered entry's time inside one (a
     * wheel catching up after a pause delivers ticks older than the turn's time).
     */
    private long armFrom;

    /** Owner-only: timeouts that came due after close began, cancelled instead of run. */
    private List<Timeout> leftovers;

    private final Consumer<TimerHandle<TimeoutTask>> fire = this::fire;

    TimerCore(TimerSettings settings) {
        this.clock = settings.clock;
        this.queue = settings.newQueue();
        this.executor = settings.executor;
        this.exceptionHandler = settings.exceptionHandler;
        this.maxPending = settings.maxPending;
        this.queueStart = queue.time();
        this.tick = queue.tick();
        this.now = queueStart;
        this.armFrom = queueStart;
    }

    /** Wakes the driver from its sleep; called from any thread. */
    abstract void wakeUp();

    // ---- the callers' side ----

    /**
     * The longest delay or period, about 146 years: longer ones saturate to it. Half the range of a
     * nanosecond reading, so that a deadline computed from one thread's reading still lies ahead
     * when compared by subtraction with another thread's slightly different reading.
     */
    static final long MAX_DELAY_NANOS = Long.MAX_VALUE / 2;

    private static final Duration MAX_DELAY = Duration.ofNanos(MAX_DELAY_NANOS);

    static long nanos(Duration duration, String name) {
        Objects.requireNonNull(duration, name);
        if (duration.isNegative()) {
            throw new IllegalArgumentException(name + " must not be negative: " + duration);
        }
        return duration.compareTo(MAX_DELAY) >= 0 ? MAX_DELAY_NANOS : duration.toNanos();
    }

    static long nanos(long amount, TimeUnit unit, String name) {
        Objects.requireNonNull(unit, "unit");
        if (amount < 0) {
            throw new IllegalArgumentException(name + " must not be negative: " + amount + " " + unit);
        }
        return Math.min(unit.toNanos(amount), MAX_DELAY_NANOS);
    }

    private static long positive(long nanos, String name, Object shown) {
        if (nanos <= 0) {
            throw new IllegalArgumentException(name + " must be positive: " + shown);
        }
        return nanos;
    }

    @Override
    public final Timeout schedule(Runnable task, Duration delay) {
        return start(task, nanos(delay, "delay"), 0);
    }

    @Override
    public final Timeout schedule(Runnable task, long delay, TimeUnit unit) {
        return start(task, nanos(delay, unit, "delay"), 0);
    }

    @Override
    public final Timeout scheduleAtFixedRate(Runnable task, Duration initialDelay, Duration period) {
        long initial = nanos(initialDelay, "initialDelay");
        return start(task, initial, positive(nanos(period, "period"), "period", period));
    }

    @Override
    public final Timeout scheduleAtFixedRate(Runnable task, long initialDelay, long period, TimeUnit unit) {
        long initial = nanos(initialDelay, unit, "initialDelay");
        return start(task, initial, positive(nanos(period, unit, "period"), "period", period + " " + unit));
    }

    @Override
    public final Timeout scheduleWithFixedDelay(Runnable task, Duration initialDelay, Duration delay) {
        long initial = nanos(initialDelay, "initialDelay");
        return start(task, initial, -positive(nanos(delay, "delay"), "delay", delay));
    }

    @Override
    public final Timeout scheduleWithFixedDelay(Runnable task, long initialDelay, long delay, TimeUnit unit) {
        long initial = nanos(initialDelay, unit, "initialDelay");
        return start(task, initial, -positive(nanos(delay, unit, "delay"), "delay", delay + " " + unit));
    }

    private Timeout start(Runnable task, long delayNanos, long period) {
        Objects.requireNonNull(task, "task");
        if (closed) {
            throw new IllegalStateException("timer is closed");
        }
        if (pending.incrementAndGet() > maxPending) {
            pending.decrementAndGet();
            throw new RejectedExecutionException("pending limit of " + maxPending + " timeouts reached");
        }
        scheduled.increment();
        TimeoutTask timeout = new TimeoutTask(this, task, clock.nanoTime() + delayNanos, period);
        if (!submit(timeout, timeout.deadline)) {
            throw new IllegalStateException("timer is closed");
        }
        return timeout;
    }

    /**
     * Hands a timeout to the driver: directly on its own thread, through the inbox elsewhere, waking
     * the driver if the deadline is earlier than the one it sleeps towards. Returns false if the
     * driver had already stopped, in which case the timeout is cancelled here.
     */
    final boolean submit(TimeoutTask timeout, long deadline) {
        if (Thread.currentThread() == owner) {
            apply(timeout);
            return true;
        }
        push(timeout);
        if (sleeping && (sleepingIdle || deadline - wakeAt < 0)) {
            wakeUp();
        }
        if (terminated && timeout.markCancelled()) {
            // Pushed after the driver's last look at the inbox: nobody will ever apply it.
            pending.decrementAndGet();
            cancelledCount.increment();
            return false;
        }
        return true;
    }

    private void push(TimeoutTask timeout) {
        if (!timeout.markQueued()) {
            return;
        }
        TimeoutTask head;
        do {
            head = inbox.get();
            timeout.next = head;
            timeout.inboxDepth = head == null ? 1 : head.inboxDepth + 1;
        } while (!inbox.compareAndSet(head, timeout));
        // Cancellations and later deadlines do not wake a sleeping driver, so without this they
        // would pile up, and stay reachable, until its next deadline, which may be hours away.
        if ((timeout.inboxDepth & (INBOX_BATCH - 1)) == 0 && sleeping) {
            wakeUp();
        }
    }

    /** Called by a successful {@link Timeout#cancel()}, from any thread. */
    final void cancelled(TimeoutTask timeout) {
        pending.decrementAndGet();
        cancelledCount.increment();
        // The entry leaves the queue on the driver's next turn; no need to wake it for that.
        if (Thread.currentThread() == owner) {
            apply(timeout);
        } else {
            push(timeout);
        }
    }

    @Override
    public final TimerStats stats() {
        return new TimerStats(scheduled.sum(), fired.sum(), cancelledCount.sum(), Math.max(0, pending.get()), lateness);
    }

    @Override
    public final boolean isClosed() {
        return closed;
    }

    /** Marks the timer closed; returns false if it already was. */
    final boolean beginClose() {
        if (closed) {
            return false;
        }
        synchronized (this) {
            if (closed) {
                return false;
            }
            closed = true;
        }
        wakeUp();
        return true;
    }

    /** The timeouts that never ran, once the driver has stopped. */
    final synchronized List<Timeout> neverRan() {
        return neverRan == null ? List.of() : neverRan;
    }

    /**
     * Waits until the driver has stopped, then returns what never ran. Close must not give up
     * half-way, so an interrupt is remembered and restored rather than obeyed.
     */
    final List<Timeout> neverRanOnceStopped(CountDownLatch stopped) {
        boolean interrupted = false;
        while (true) {
            try {
                stopped.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return neverRan();
    }

    // ---- the driver's side (owner-only) ----

    /**
     * Runs one turn: takes the inbox, fires what is due, applies the messages, fires what they made
     * due. Afterwards {@link #hasTimers()} and {@link #nextDeadline()} tell how long to sleep.
     */
    final void turn() {
        TimeoutTask batch = inbox.getAndSet(null);
        // Read after taking the batch: each deadline in it comes from an earlier reading, so a zero
        // delay is due in this very turn.
        now = clock.nanoTime();
        // Fire before applying, which also brings a wheel's current tick up to now. The price: a
        // timeout handed over from another thread runs after those already queued that are due in
        // the same turn, even if its deadline is earlier (it was handed over late).
        queue.poll(now, fire, Integer.MAX_VALUE);
        armFrom = now;
        applyAll(batch);
        queue.poll(now, fire, Integer.MAX_VALUE);
    }

    final boolean hasTimers() {
        return !queue.isEmpty();
    }

    final long nextDeadline() {
        return queue.nextDeadline();
    }

    /**
     * Announces that the driver is about to sleep until {@code deadline} (or without end when
     * {@code idle}); returns false if it must not sleep because work or a close arrived meanwhile.
     */
    final boolean prepareToSleep(boolean idle, long deadline) {
        wakeAt = deadline;
        sleepingIdle = idle;
        sleeping = true;
        if (inbox.get() != null || closed) {
            sleeping = false;
            return false;
        }
        return true;
    }

    final void awake() {
        sleeping = false;
    }

    final boolean closing() {
        return closed;
    }

    private void applyAll(TimeoutTask batch) {
        // The stack is newest first; reverse it so that one thread's schedules keep their order.
        TimeoutTask reversed = null;
        while (batch != null) {
            TimeoutTask next = batch.next;
            batch.next = reversed;
            reversed = batch;
            batch = next;
        }
        while (reversed != null) {
            TimeoutTask timeout = reversed;
            reversed = timeout.next;
            timeout.next = null;
            timeout.clearQueued();
            apply(timeout);
        }
    }

    /**
     * Where the entry for {@code deadline} goes: the deadline itself, but a reached deadline goes
     * into a wheel's current tick (it would otherwise wait for the next boundary), and one beyond a
     * bounded wheel's range goes to the edge of the range, to be moved on when it comes due.
     */
    private long entryTime(long deadline) {
        if (deadline - now <= 0) {
            return tick == 1 ? deadline : armFrom - Long.remainderUnsigned(armFrom - queueStart, tick);
        }
        long horizon = queue.horizon();
        return deadline - horizon > 0 ? horizon : deadline;
    }

    /** Makes the queue agree with what the timeout now wants. */
    private void apply(TimeoutTask timeout) {
        TimerHandle<TimeoutTask> handle = timeout.handle;
        boolean hasEntry = handle != null && handle.isPending();
        int state = timeout.state();
        if (state == TimeoutTask.RUNNING) {
            return; // the end of the run re-arms it
        }
        if (state != TimeoutTask.PENDING) {
            if (hasEntry) {
                queue.cancel(handle);
            }
            return;
        }
        long wanted = timeout.deadline;
        long at;
        while (true) {
            at = entryTime(wanted);
            if (hasEntry && at - handle.deadline() >= 0) {
                at = handle.deadline(); // early is fine: it moves when it comes due
            }
            // Publish before reading the deadline again: a caller who moves it earlier after this
            // read sees this entry and sends a message; one who moved it before, we see here.
            timeout.armed = at;
            long again = timeout.deadline;
            if (again - wanted >= 0) {
                break;
            }
            wanted = again;
        }
        if (!hasEntry) {
            timeout.handle = queue.schedule(at, timeout);
        } else if (at != handle.deadline()) {
            queue.reschedule(handle, at);
        }
    }

    /** The queue's consumer: one due entry. */
    private void fire(TimerHandle<TimeoutTask> handle) {
        TimeoutTask timeout = handle.payload();
        armFrom = handle.deadline();
        int state = timeout.lock();
        if (state != TimeoutTask.PENDING) {
            // Cancelled (a running periodic timeout has no entry, an expired one neither); should a
            // running one ever get here, its lock must not stay taken.
            if (state == TimeoutTask.RUNNING) {
                timeout.unlock(state);
            }
            return;
        }
        if (closed) {
            // Close has begun: nothing starts any more; close() returns it with the rest.
            timeout.unlock(TimeoutTask.CANCELLED);
            pending.decrementAndGet();
            cancelledCount.increment();
            if (leftovers == null) {
                leftovers = new ArrayList<>();
            }
            leftovers.add(timeout);
            return;
        }
        long deadline = timeout.deadline;
        if (deadline - now > 0) {
            // Moved later without a message, or held early by a bounded wheel: move, don't run.
            long at = entryTime(deadline);
            timeout.armed = at;
            timeout.unlock(TimeoutTask.PENDING);
            if (at - now > 0) {
                queue.reschedule(handle, at);
            } else {
                // A bounded wheel catching up after a long pause could only move it a range at a
                // time, each step due again in this poll: place it after the poll, from now.
                push(timeout);
            }
            return;
        }
        if (timeout.period == 0) {
            timeout.unlock(TimeoutTask.EXPIRED);
            pending.decrementAndGet();
        } else {
            timeout.startRun();
        }
        if (executor == null) {
            runTask(timeout, deadline);
            rearm(timeout, deadline, handle);
        } else {
            timeout.firedDeadline = deadline;
            try {
                executor.execute(timeout);
            } catch (Throwable e) {
                // Rejected, a broken executor, or no thread to be had: report it and keep the driver
                // alive; a periodic timeout tries its next run.
                report(timeout, e);
                rearm(timeout, deadline, handle);
            }
        }
    }

    /**
     * Ends a periodic run on the driver's thread: sets the next deadline and puts the delivered
     * entry back, allocating nothing. A one-shot, or a timeout cancelled during its run, stays out.
     */
    private void rearm(TimeoutTask timeout, long ranFor, TimerHandle<TimeoutTask> handle) {
        if (timeout.period == 0) {
            return;
        }
        int state = timeout.lock();
        if (state != TimeoutTask.RUNNING) {
            if (state == TimeoutTask.PENDING) {
                timeout.unlock(state);
            }
            return;
        }
        long next = nextRun(timeout, ranFor);
        timeout.deadline = next;
        long at = entryTime(next);
        timeout.armed = at;
        timeout.unlock(TimeoutTask.PENDING);
        queue.reschedule(handle, at);
    }

    /** Under the timeout's lock: the deadline after a periodic run, unless a reschedule chose it. */
    private long nextRun(TimeoutTask timeout, long ranFor) {
        if (timeout.movedDuringRun()) {
            return timeout.deadline;
        }
        return timeout.period > 0 ? ranFor + timeout.period : clock.nanoTime() - timeout.period;
    }

    /** Runs on an executor's thread. */
    final void runOnExecutor(TimeoutTask timeout) {
        if (timeout.period != 0) {
            // The run starts when the lock is released as RUNNING: a cancel before that stops it,
            // a cancel after it stops only the runs that follow.
            int state = timeout.lock();
            if (state != TimeoutTask.RUNNING) {
                if (state == TimeoutTask.PENDING) {
                    timeout.unlock(state);
                }
                return;
            }
            timeout.unlock(TimeoutTask.RUNNING);
        }
        long ranFor = timeout.firedDeadline;
        runTask(timeout, ranFor);
        if (timeout.period != 0 && timeout.lock() == TimeoutTask.RUNNING) {
            timeout.deadline = nextRun(timeout, ranFor);
            timeout.unlock(TimeoutTask.PENDING);
            // Its entry was delivered, so the driver makes a new one: one small allocation per run,
            // the price of never running a periodic task twice at once.
            submit(timeout, timeout.deadline);
        }
    }

    private void runTask(TimeoutTask timeout, long deadline) {
        fired.increment();
        lateness.record(clock.nanoTime() - deadline);
        try {
            timeout.task.run();
        } catch (Throwable e) {
            report(timeout, e);
        }
    }

    private void report(TimeoutTask timeout, Throwable error) {
        try {
            exceptionHandler.handle(timeout, error);
        } catch (Throwable handlerError) {
            handlerError.addSuppressed(error);
            handlerError.printStackTrace();
        }
    }

    /**
     * Stops: applies the inbox, removes every pending timeout, and keeps those that never ran for
     * {@link #close()}'s callers. Also called when the loop died of an error: the timer is closed.
     */
    final void shutdown() {
        closed = true;
        applyAll(inbox.getAndSet(null));
        List<Timeout> left = leftovers == null ? new ArrayList<>() : leftovers;
        queue.clear(h -> cancelForClose(h.payload(), left));
        terminated = true;
        // Anything pushed after the last look: scheduled while closing, or a periodic run on an
        // executor that ended meanwhile. Whatever is pushed from now on, submit() cancels itself.
        for (TimeoutTask late = inbox.getAndSet(null); late != null; late = late.next) {
            cancelForClose(late, left);
        }
        synchronized (this) {
            neverRan = List.copyOf(left);
        }
    }

    private void cancelForClose(TimeoutTask timeout, List<Timeout> left) {
        if (timeout.markCancelled()) {
            pending.decrementAndGet();
            cancelledCount.increment();
            left.add(timeout);
        }
    }
}
