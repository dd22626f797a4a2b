package dev.hourglass.executor;

import static java.util.concurrent.TimeUnit.NANOSECONDS;

import dev.hourglass.time.NanoClock;
import dev.hourglass.timer.Timer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
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
 * <p>A task is counted from its admission until it will never run again; it is in the set while
 * counted. Who takes a waiting task out (it runs, a cancel, shutdown, shutdownNow) is decided by
 * the task's own phase, so each task is finished exactly once.
 *
 * <p>Complexity: admit and finish O(1); shutdown and shutdownNow O(tasks).
 *
 * <p>Thread-safety: every method from any thread.
 */
final class RunState {

    static final int RUNNING = 0;
    static final int SHUTDOWN = 1;
    static final int STOP = 2;
    static final int TERMINATED = 3;

    final Timer timer;
    final NanoClock clock;
    /** Where tasks run; null: on the thread that runs the timer's tasks. */
    final Executor taskExecutor;

    private final boolean executeDelayedAfterShutdown;
    private final boolean continuePeriodicAfterShutdown;
    private final Runnable onTermination;
    private final AtomicInteger state = new AtomicInteger(RUNNING);
    private final AtomicLong unfinished = new AtomicLong();
    private final Set<ScheduledTask<?>> tasks = ConcurrentHashMap.newKeySet();
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

    /**
     * Counts a new task in, before it is put on the timer.
     *
     * @throws RejectedExecutionException once shutdown has begun
     */
    void admit(ScheduledTask<?> task) {
        // Counted before the state is read: a shutdown that reads the count after changing the
        // state then sees this task, or this call sees the shutdown.
        unfinished.incrementAndGet();
        if (state.get() != RUNNING) {
            release();
            rejected.increment();
            throw new RejectedExecutionException("the executor is shut down; task refused: " + task);
        }
        tasks.add(task);
    }

    /** Counts a task out: it will never run again. Called exactly once per admitted task. */
    void finished(ScheduledTask<?> task) {
        tasks.remove(task);
        release();
    }

    private void release() {
        if (unfinished.decrementAndGet() == 0 && state.get() != RUNNING) {
            terminate();
        }
    }

    /** Counts a task the timer refused (closed or full). */
    void rejected() {
        rejected.increment();
    }

    /** Counts a future completed with an exception: the task threw, or its run was refused. */
    void failed() {
        failed.increment();
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
        for (ScheduledTask<?> task : tasks) {
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
        List<Runnable> neverRan = new ArrayList<>();
        for (ScheduledTask<?> task : tasks) {
            if (task.drain()) {
                neverRan.add(task);
            }
        }
        // Interrupted only now: a task the interrupt ends does not free its thread for the others.
        for (ScheduledTask<?> task : tasks) {
            task.interruptIfRunning();
        }
        terminateIfIdle();
        return neverRan;
    }

    boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return terminated.await(timeout, unit);
    }

    private void terminateIfIdle() {
        if (unfinished.get() == 0) {
            terminate();
        }
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
        return names[state.get()] + ", " + unfinished.get() + " tasks unfinished";
    }
}
