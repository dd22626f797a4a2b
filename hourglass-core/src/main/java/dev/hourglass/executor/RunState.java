package dev.hourglass.executor;

import static java.util.concurrent.TimeUnit.NANOSECONDS;

import dev.hourglass.time.NanoClock;
import dev.hourglass.timer.Timer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The life of an executor: running, shut down, stopped, terminated; the tasks not yet finished for
 * good (waiting or running), which shutdown and shutdownNow go through; and the count of them that
 * tells when a shut-down executor terminates. Also what every task needs: the timer, its clock and
 * where tasks run.
 *
 * <p>A task is counted from its admission until it will never run again: it is linked in a {@link
 * TaskStripe}, which counts it, while counted. Who takes a waiting task out (it runs, a cancel,
 * shutdown, shutdownNow) is decided by the task's own phase, so each task is finished exactly once.
 * The admission reads the state under the stripe's lock, and shutdown goes through each stripe
 * under its lock after changing the state: a task is either refused or seen. So a schedule and its
 * cancel cost one atomic add (the sequence number) and two uncontended locks, on this executor's
 * state only.
 *
 * <p>Complexity: admit and finish O(1), allocating nothing; shutdown and shutdownNow O(tasks).
 *
 * <p>Thread-safety: every method from any thread.
 */
final class RunState {

    static final int RUNNING = 0;
    static final int SHUTDOWN = 1;
    static final int STOP = 2;
    static final int TERMINATED = 3;

    /** Numbers the executors in the order they were built. */
    private static final AtomicLong IDS = new AtomicLong();

    /** This executor's number: breaks ties between equal deadlines and sequences of two executors. */
    final long id = IDS.getAndIncrement();

    final Timer timer;
    final NanoClock clock;
    /** Where tasks run; null: on the thread that runs the timer's tasks. */
    final Executor taskExecutor;

    private final boolean executeDelayedAfterShutdown;
    private final boolean continuePeriodicAfterShutdown;
    private final Runnable onTermination;
    private final AtomicInteger state = new AtomicInteger(RUNNING);
    /** Numbers this executor's tasks in the order they were made, refused ones included. */
    private final AtomicLong sequences = new AtomicLong();

    private final TaskStripe[] stripes = newStripes();
    private final CountDownLatch terminated = new CountDownLatch(1);

    /** Counted off the schedule path's shared state: striped, read only by monitoring. */
    private final LongAdder rejected = new LongAdder();

    private final LongAdder failed = new LongAdder();

    RunState(
            Timer timer,
            Executor taskExecutor,
            boolean executeDelayedAfterShutdown,
            boolean continuePeriodicAfterShutdown,
            Runnable onTermination) {
        this.timer = timer;
        this.clock = timer.clock();
        this.taskExecutor = taskExecutor;
        this.executeDelayedAfterShutdown = executeDelayedAfterShutdown;
        this.continuePeriodicAfterShutdown = continuePeriodicAfterShutdown;
        this.onTermination = onTermination;
    }

    private static TaskStripe[] newStripes() {
        // A power of two at least twice the processors: concurrent submitters seldom meet.
        int count = Integer.highestOneBit(Math.max(1, 2 * Runtime.getRuntime().availableProcessors() - 1)) << 1;
        TaskStripe[] stripes = new TaskStripe[count];
        for (int i = 0; i < count; i++) {
            stripes[i] = new TaskStripe();
        }
        return stripes;
    }

    /** The next task's sequence number, unique in this executor and rising in the order drawn. */
    long nextSequence() {
        return sequences.getAndIncrement();
    }

    /**
     * Counts a new task in and links it for shutdown and shutdownNow to find, before it is put on
     * the timer.
     *
     * @throws RejectedExecutionException once shutdown has begun
     */
    void admit(ScheduledTask<?> task) {
        TaskStripe stripe = stripeOf(task);
        synchronized (stripe) {
            // Read under the lock that shutdown takes after changing the state: either this call
            // sees the shutdown, or the shutdown sees this task.
            if (state.get() == RUNNING) {
                stripe.add(task);
                return;
            }
        }
        rejected.increment();
        throw new RejectedExecutionException("the executor is shut down; task refused: " + task);
    }

    /** Counts a task out: it will never run again. Called exactly once per admitted task. */
    void finished(ScheduledTask<?> task) {
        TaskStripe stripe = stripeOf(task);
        synchronized (stripe) {
            stripe.remove(task);
        }
        if (state.get() != RUNNING) {
            terminateIfIdle();
        }
    }

    private TaskStripe stripeOf(ScheduledTask<?> task) {
        return stripes[(int) task.sequence() & (stripes.length - 1)];
    }

    /** Counts a task the timer refused (closed or full). */
    void rejected() {
        rejected.increment();
    }

    /** Counts a future completed with an exception: the task threw, or its run was refused. */
    void failed() {
        failed.increment();
    }

    /** Takes back a count of {@link #failed()}: a cancel completed the future first. */
    void failureWithdrawn() {
        failed.decrement();
    }

    long rejectedCount() {
        return rejected.sum();
    }

    long failedCount() {
        return failed.sum();
    }

    /** Whether a task may run, or wait for a run, in the current state (the shutdown policies). */
    boolean mayRun(ScheduledTask<?> task) {
        int s = state.get();
        if (s == RUNNING) {
            return true;
        }
        if (s != SHUTDOWN) {
            return false;
        }
        return task.isPeriodic()
                ? continuePeriodicAfterShutdown
                : executeDelayedAfterShutdown || task.getDelay(NANOSECONDS) <= 0;
    }

    boolean isStopping() {
        return state.get() >= STOP;
    }

    boolean isShutdown() {
        return state.get() != RUNNING;
    }

    /** True once terminated and the owned timer and task executor, if any, are closed. */
    boolean isTerminated() {
        return terminated.getCount() == 0;
    }

    void shutdown() {
        state.compareAndSet(RUNNING, SHUTDOWN);
        for (ScheduledTask<?> task : unfinished()) {
            if (!mayRun(task)) {
                task.drop();
            }
        }
        terminateIfIdle();
    }

    List<Runnable> shutdownNow() {
        for (int s = state.get(); s < STOP && !state.compareAndSet(s, STOP); s = state.get()) {
            // another thread moved the state: read it again
        }
        List<ScheduledTask<?>> unfinished = unfinished();
        List<Runnable> neverRan = new ArrayList<>();
        for (ScheduledTask<?> task : unfinished) {
            if (task.drain()) {
                neverRan.add(task);
            }
        }
        // Interrupted only now: a task the interrupt ends does not free its thread for the others.
        for (ScheduledTask<?> task : unfinished) {
            task.interruptIfRunning();
        }
        terminateIfIdle();
        return neverRan;
    }

    boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return terminated.await(timeout, unit);
    }

    /**
     * The tasks linked now: every task counted, as one admitted after the state changed is
     * refused. One not yet on the timer may be taken out all the same: its phase says so, and its
     * arming then cancels the timeout it gets.
     */
    private List<ScheduledTask<?>> unfinished() {
        List<ScheduledTask<?>> all = new ArrayList<>(Math.min(count(), 1 << 20));
        for (TaskStripe stripe : stripes) {
            synchronized (stripe) {
                stripe.copyTo(all);
            }
        }
        return all;
    }

    /** Terminates if no task is counted; the caller read a state other than running before. */
    private void terminateIfIdle() {
        // No stripe's count can rise any more (admissions are refused), so a sum of zero, though
        // read stripe by stripe, means no task is left.
        if (count() == 0) {
            terminate();
        }
    }

    private int count() {
        int sum = 0;
        for (TaskStripe stripe : stripes) {
            synchronized (stripe) {
                sum += stripe.count();
            }
        }
        return sum;
    }

    private void terminate() {
        int s = state.get();
        while (s == SHUTDOWN || s == STOP) {
            if (state.compareAndSet(s, TERMINATED)) {
                try {
                    onTermination.run();
                } finally {
                    terminated.countDown();
                }
                return;
            }
            s = state.get();
        }
    }

    @Override
    public String toString() {
        String[] names = {"running", "shut down", "stopped", "terminated"};
        return names[state.get()] + ", " + count() + " tasks unfinished";
    }
}
