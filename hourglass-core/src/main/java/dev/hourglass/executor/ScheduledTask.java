package dev.hourglass.executor;

import static java.util.concurrent.TimeUnit.NANOSECONDS;

import dev.hourglass.timer.Timeout;
import dev.hourglass.timer.TimerTask;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.Callable;
import java.util.concurrent.Delayed;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.RunnableScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A task of a {@link TimerExecutorService} and its future. It extends {@link FutureTask}, the
 * JDK's own skeleton for this, which the JDK's scheduled executor extends too: its run, cancel,
 * interruption and waiting are the contract to keep, and are subtle enough not to write twice.
 *
 * <p>Each run is a one-shot timeout on the timer; a periodic task files its next run when a run
 * ends, so runs never overlap and a fixed delay counts from the end of the run. Its phase says who
 * may take it while it waits: the run that comes due, a cancel, shutdown or shutdownNow, whichever
 * moves it from {@code QUEUED} first.
 *
 * <p>A one-shot task is this class; a periodic one a {@link PeriodicTask}, so that one-shots, the
 * common case, carry no period field.
 *
 * <p>Complexity: O(1) besides the timer's schedule and cancel. Thread-safety: any thread.
 */
class ScheduledTask<V> extends FutureTask<V> implements RunnableScheduledFuture<V>, TimerTask {

    private static final int QUEUED = 0;
    private static final int RUNNING = 1;
    private static final int DONE = 2;
    private static final VarHandle PHASE;
    private static final VarHandle DEADLINE;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            PHASE = lookup.findVarHandle(ScheduledTask.class, "phase", int.class);
            DEADLINE = lookup.findVarHandle(ScheduledTask.class, "deadline", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final RunState executor;

    /**
     * From the executor's sequence numbers: breaks ties between equal deadlines in {@link
     * #compareTo} (the earlier task first) and chooses the task's {@link TaskStripe}.
     */
    private final long sequence;

    /**
     * Written plainly when made (the task reaches other threads through the timer or the caller),
     * then with release by a periodic run, read with acquire: a volatile write would cost every
     * schedule a fence.
     */
    private long deadline;

    private volatile int phase;
    private volatile Timeout timeout;
    /** The thread running the task, interrupted by shutdownNow; guarded by this. */
    private Thread runner;

    /** The links of the executor's list of unfinished tasks; guarded by the task's stripe. */
    ScheduledTask<?> previousInStripe;

    ScheduledTask<?> nextInStripe;

    ScheduledTask(RunState executor, Callable<V> callable, long deadline, long sequence) {
        super(callable);
        this.executor = executor;
        this.deadline = deadline;
        this.sequence = sequence;
    }

    long sequence() {
        return sequence;
    }

    /** Nanoseconds: 0 for a one-shot, above 0 a fixed rate, below 0 a fixed delay. */
    long period() {
        return 0;
    }

    @Override
    public final boolean isPeriodic() {
        return period() != 0;
    }

    @Override
    public long getDelay(TimeUnit unit) {
        return unit.convert(deadline() - executor.clock.nanoTime(), NANOSECONDS);
    }

    /**
     * As the JDK's tasks compare: by deadline, ties by submission order; ties between executors
     * (whose sequences are their own) by the order the executors were built, so that only a task
     * compares equal to itself.
     */
    @Override
    public int compareTo(Delayed other) {
        if (other == this) {
            return 0;
        }
        if (other instanceof ScheduledTask && ((ScheduledTask<?>) other).executor.clock == executor.clock) {
            ScheduledTask<?> that = (ScheduledTask<?>) other;
            long diff = deadline() - that.deadline();
            if (diff != 0) {
                return diff < 0 ? -1 : 1;
            }
            int bySequence = Long.compare(sequence, that.sequence);
            return bySequence != 0 ? bySequence : Long.compare(executor.id, that.executor.id);
        }
        return Long.signum(getDelay(NANOSECONDS) - other.getDelay(NANOSECONDS));
    }

    private long deadline() {
        return (long) DEADLINE.getAcquire(this);
    }

    /**
     * Puts the next run on the timer, {@code delayNanos} from now: the delay to the deadline, which
     * the caller may have read the clock for already.
     *
     * @throws RejectedExecutionException if the timer is closed or full
     */
    void arm(long delayNanos) {
        Timeout next;
        try {
            next = executor.timer.schedule((TimerTask) this, delayNanos, NANOSECONDS);
        } catch (IllegalStateException e) {
            throw new RejectedExecutionException("the timer is closed: " + executor.timer, e);
        }
        timeout = next;
        // A cancel that took the task before the timeout was stored could not cancel it.
        if (phase == DONE) {
            next.cancel();
        }
    }

    /** Completes the future with the failure and counts it, unless a cancel came first. */
    @Override
    protected void setException(Throwable t) {
        // Counted before the future completes, so that whoever sees the failure sees the count;
        // taken back if a cancel won.
        executor.failed();
        super.setException(t);
        if (isCancelled()) {
            executor.failureWithdrawn();
        }
    }

    /** What the timer runs when a run is due; not for users. */
    @Override
    public void run(Timeout due) {
        if (executor.taskExecutor == null) {
            runIfQueued();
            return;
        }
        try {
            executor.taskExecutor.execute(this::runIfQueued);
        } catch (RuntimeException refused) {
            if (claim(QUEUED, DONE)) {
                setException(refused);
                executor.finished(this);
            }
        }
    }

    /**
     * Runs the task now on this thread if it waits for a run, as the JDK's tasks do when a caller
     * runs one; a task that shutdownNow returned is cancelled instead, as the JDK's is.
     */
    @Override
    public void run() {
        if (claim(QUEUED, RUNNING)) {
            cancelTimeout();
            runClaimed();
        } else if (phase == DONE) {
            super.cancel(false);
        }
    }

    private void runIfQueued() {
        // Once stopping, a waiting task belongs to shutdownNow's list (as the JDK's worker takes no
        // task once stopping): shutdownNow, or the re-check of whoever queued it, takes it out.
        if (!executor.isStopping() && claim(QUEUED, RUNNING)) {
            runClaimed();
        }
    }

    private void runClaimed() {
        boolean again = false;
        synchronized (this) {
            runner = Thread.currentThread();
        }
        try {
            // Read after the runner is published: a shutdownNow after this read interrupts it.
            if (!executor.mayRun(this)) {
                super.cancel(false);
            } else if (period() == 0) {
                super.run();
            } else {
                again = runAndReset();
            }
        } finally {
            synchronized (this) {
                runner = null;
            }
        }
        if (isCancelled() || executor.isStopping()) {
            Thread.interrupted(); // the interrupt was for this task, not for the thread's next one
        }
        if (again) {
            long period = period();
            DEADLINE.setRelease(this, period > 0 ? deadline + period : executor.clock.nanoTime() - period);
            phase = QUEUED; // from here a cancel, shutdown or shutdownNow may take it
            requeue();
        } else {
            phase = DONE;
            executor.finished(this);
        }
    }

    private void requeue() {
        if (executor.mayRun(this) && !isCancelled()) {
            try {
                arm(deadline - executor.clock.nanoTime());
            } catch (RejectedExecutionException e) {
                if (claim(QUEUED, DONE)) {
                    setException(e);
                    executor.finished(this);
                }
                return;
            }
            // Read again: a shutdown or cancel that came before the task was queued missed it.
            if (executor.mayRun(this) && !isCancelled()) {
                return;
            }
        }
        drop();
    }

    /** Cancels the task if it waits for a run (a shutdown policy, or a cancel missed it). */
    void drop() {
        if (claim(QUEUED, DONE)) {
            cancelTimeout();
            super.cancel(false);
            executor.finished(this);
        }
    }

    /**
     * For shutdownNow: takes the task out if it waits for a run, leaving its future as it is (as
     * the JDK's executor does).
     *
     * @return true if the task was waiting and will never run
     */
    boolean drain() {
        if (claim(QUEUED, DONE)) {
            cancelTimeout();
            executor.finished(this);
            return true;
        }
        return false;
    }

    /** For shutdownNow: interrupts the task if it is running. */
    void interruptIfRunning() {
        synchronized (this) {
            if (runner != null) {
                runner.interrupt();
            }
        }
    }

    /** Takes a task the timer refused out again: it was never returned to anyone. */
    void abandon() {
        if (claim(QUEUED, DONE)) {
            executor.finished(this);
        }
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        boolean cancelled = super.cancel(mayInterruptIfRunning);
        // A running task is finished by its run, which sees the cancel.
        if (cancelled && claim(QUEUED, DONE)) {
            cancelTimeout();
            executor.finished(this);
        }
        return cancelled;
    }

    private void cancelTimeout() {
        Timeout current = timeout;
        if (current != null) {
            current.cancel();
        }
    }

    private boolean claim(int from, int to) {
        return PHASE.compareAndSet(this, from, to);
    }
}
