package dev.hourglass.timer;

import dev.hourglass.queue.TimerHandle;
import dev.hourglass.queue.TimerQueue;
import dev.hourglass.time.NanoClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
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
 * touch no inbox. The driver is woken only when a new deadline is earlier than the one it sleeps
 * towards, or when it sleeps with nothing to wait for.
 *
 * <p>Complexity: a hand-off is one CAS on the caller's side; the driver's work is the queue's.
 *
 * <p>Ordering: due tasks run in the queue's order.
 *
 * <p>Thread-safety: the public side is safe from any thread; methods marked owner-only run on the
 * driver's thread.
 */
abstract class TimerCore implements Timer {

    final NanoClock clock;
    final TimerQueue<TimeoutTask> queue;
    private final Executor executor;
    private final Timer.ExceptionHandler exceptionHandler;
    private final long maxPending;
    private final long maxDelayNanos;

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

    private final Consumer<TimerHandle<TimeoutTask>> fire = this::fire;

    TimerCore(TimerSettings settings) {
        this.clock = settings.clock;
        this.queue = settings.newQueue();
        this.executor = settings.executor;
        this.exceptionHandler = settings.exceptionHandler;
        this.maxPending = settings.maxPending;
        this.maxDelayNanos = settings.maxDelayNanos();
    }

    /** Wakes the driver from its sleep; called from any thread. */
    abstract void wakeUp();

    // ---- the callers' side ----

    static long nanos(Duration duration, String name) {
        Objects.requireNonNull(duration, name);
        if (duration.isNegative()) {
            throw new IllegalArgumentException(name + " must not be negative: " + duration);
        }
        // Saturate instead of overflowing: Duration reaches far beyond 292 years.
        return duration.compareTo(Duration.ofNanos(Long.MAX_VALUE)) >= 0 ? Long.MAX_VALUE : duration.toNanos();
    }

    static long nanos(long amount, TimeUnit unit, String name) {
        Objects.requireNonNull(unit, "unit");
        if (amount < 0) {
            throw new IllegalArgumentException(name + " must not be negative: " + amount + " " + unit);
        }
        return unit.toNanos(amount);
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
        if (delayNanos > maxDelayNanos) {
            throw new IllegalArgumentException(
                    "delay exceeds the structure's range of " + maxDelayNanos + " ns: " + delayNanos + " ns");
        }
        if (Math.abs(period) > maxDelayNanos) {
            throw new IllegalArgumentException(
                    "period exceeds the structure's range of " + maxDelayNanos + " ns: " + Math.abs(period) + " ns");
        }
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
        if (terminated && timeout.casState(TimeoutTask.PENDING, TimeoutTask.CANCELLED)) {
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
        } while (!inbox.compareAndSet(head, timeout));
    }

    /** Called by a successful {@link Timeout#cancel()}. */
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

    // ---- the driver's side (owner-only) ----

    /**
     * Runs one turn: fires what is due, applies the inbox, fires again what that made due. Returns
     * the queue's next delivery time relative to nothing: callers check {@link #hasTimers()}.
     */
    final void turn() {
        now = clock.nanoTime();
        // Poll before applying the inbox so that a wheel's current tick has caught up with now.
        queue.poll(now, fire, Integer.MAX_VALUE);
        drainInbox();
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

    private void drainInbox() {
        TimeoutTask batch = inbox.getAndSet(null);
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

    /** Makes the queue agree with what the timeout now wants. */
    private void apply(TimeoutTask timeout) {
        TimerHandle<TimeoutTask> handle = timeout.handle;
        int state = timeout.state();
        if (state != TimeoutTask.PENDING) {
            if (handle != null && handle.isPending()) {
                queue.cancel(handle);
            }
            return;
        }
        long deadline = timeout.deadline;
        if (handle != null && handle.isPending()) {
            if (deadline != handle.deadline()) {
                queue.reschedule(handle, deadline);
                timeout.armed = deadline;
            }
        } else if (!timeout.running) {
            timeout.armed = deadline;
            timeout.handle = queue.schedule(deadline, timeout);
        }
    }

    /** The queue's consumer: one due entry. */
    private void fire(TimerHandle<TimeoutTask> handle) {
        TimeoutTask timeout = handle.payload();
        if (!timeout.casState(TimeoutTask.PENDING, TimeoutTask.FIRING)) {
            return;
        }
        long deadline = timeout.deadline;
        if (deadline - now > 0) {
            // Moved later without a message: re-arm instead of running.
            queue.reschedule(handle, deadline);
            timeout.armed = deadline;
            timeout.setState(TimeoutTask.PENDING);
            return;
        }
        if (timeout.period == 0) {
            timeout.setState(TimeoutTask.EXPIRED);
            pending.decrementAndGet();
        } else {
            timeout.setState(TimeoutTask.PENDING);
        }
        if (executor == null) {
            // While running, a reschedule of this timeout from its own task must not add an entry.
            timeout.running = timeout.period != 0;
            runTask(timeout, deadline);
            rearmInPlace(timeout, handle, deadline);
        } else {
            timeout.firedDeadline = deadline;
            timeout.running = timeout.period != 0;
            try {
                executor.execute(timeout);
            } catch (RejectedExecutionException e) {
                report(timeout, e);
                // A periodic timeout tries again at its next period.
                rearmInPlace(timeout, handle, deadline);
            }
        }
    }

    /** Re-arms a periodic timeout's entry from inside the queue's consumer; allocates nothing. */
    private void rearmInPlace(TimeoutTask timeout, TimerHandle<TimeoutTask> handle, long ranFor) {
        if (timeout.period == 0) {
            return;
        }
        rearm(timeout, ranFor);
        timeout.running = false;
        if (timeout.state() == TimeoutTask.PENDING) {
            queue.reschedule(handle, timeout.armed);
        }
    }

    /** Runs on an executor's thread. */
    final void runOnExecutor(TimeoutTask timeout) {
        long deadline = timeout.firedDeadline;
        runTask(timeout, deadline);
        if (timeout.period != 0) {
            rearm(timeout, deadline);
            timeout.running = false;
            if (timeout.state() == TimeoutTask.PENDING) {
                // Its entry was delivered, so the driver schedules a new one: one small allocation
                // per run, the price of never running a periodic task twice at once.
                submit(timeout, timeout.deadline);
            }
        }
    }

    /** Sets a periodic timeout's next deadline, unless a reschedule during the run already did. */
    private void rearm(TimeoutTask timeout, long ranFor) {
        long next = timeout.period > 0 ? ranFor + timeout.period : clock.nanoTime() - timeout.period;
        timeout.casDeadline(ranFor, next);
        if (Thread.currentThread() == owner) {
            timeout.armed = timeout.deadline;
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
     * {@link #close()}'s callers.
     */
    final void shutdown() {
        drainInbox();
        List<Timeout> left = new ArrayList<>();
        queue.clear(h -> {
            TimeoutTask timeout = h.payload();
            if (timeout.casState(TimeoutTask.PENDING, TimeoutTask.CANCELLED)) {
                pending.decrementAndGet();
                cancelledCount.increment();
                left.add(timeout);
            }
        });
        terminated = true;
        // Anything pushed after the last look: scheduled while closing.
        TimeoutTask late = inbox.getAndSet(null);
        for (; late != null; late = late.next) {
            if (late.handle == null && late.casState(TimeoutTask.PENDING, TimeoutTask.CANCELLED)) {
                pending.decrementAndGet();
                cancelledCount.increment();
                left.add(late);
            }
        }
        synchronized (this) {
            neverRan = List.copyOf(left);
        }
    }

    /** How far ahead a deadline may lie, for bounded structures. */
    final long maxDelayNanos() {
        return maxDelayNanos;
    }
}
