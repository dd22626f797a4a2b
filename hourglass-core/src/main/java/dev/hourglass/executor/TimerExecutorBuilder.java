package dev.hourglass.executor;

import dev.hourglass.timer.Timer;
import dev.hourglass.timer.TimerBuilder;
import dev.hourglass.timer.Timers;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;

/**
 * Chooses how a {@link TimerExecutorService} is built: where its tasks run and what {@link
 * TimerExecutorService#shutdown()} does with the tasks still waiting, with the defaults of {@link
 * java.util.concurrent.ScheduledThreadPoolExecutor}: tasks run on the thread that runs the timer's
 * tasks, delayed one-shot tasks still run after shutdown, periodic tasks are cancelled by it.
 *
 * <p>The executor either borrows a timer ({@link #build(Timer)}: it never closes it, and several
 * executors and other users may share it) or starts and owns one ({@link #startTimerThread()}: it
 * closes the timer when it terminates).
 *
 * <p>Complexity: O(1) per setting. Ordering: not applicable.
 *
 * <p>Thread-safety: none; configure on one thread, then build.
 */
public final class TimerExecutorBuilder {

    private Executor taskExecutor;
    private Supplier<ExecutorService> ownedTaskExecutor;
    private boolean executeDelayedAfterShutdown = true;
    private boolean continuePeriodicAfterShutdown;

    TimerExecutorBuilder() {}

    /**
     * Runs tasks on {@code executor} (a worker pool, say) instead of on the thread that runs the
     * timer's tasks; the executor is borrowed, never shut down by this one. A task the executor
     * refuses completes its future with the {@link java.util.concurrent.RejectedExecutionException}.
     * Replaces an earlier {@link #virtualThreadPerTask()}.
     *
     * @param executor where tasks run
     * @return this builder
     * @throws NullPointerException if {@code executor} is null
     */
    public TimerExecutorBuilder taskExecutor(Executor executor) {
        this.taskExecutor = Objects.requireNonNull(executor, "executor");
        this.ownedTaskExecutor = null;
        return this;
    }

    /**
     * Runs each task on a new virtual thread (Java 21 or later), from an executor of {@code
     * Executors.newVirtualThreadPerTaskExecutor()} that each built executor owns and shuts down when
     * it terminates. Found by reflection, since the core is built for Java 17. Replaces an earlier
     * {@link #taskExecutor(Executor)}.
     *
     * @return this builder
     * @throws UnsupportedOperationException on Java 20 or earlier, naming the running version
     */
    public TimerExecutorBuilder virtualThreadPerTask() {
        this.ownedTaskExecutor = VirtualThreads.perTaskExecutors();
        this.taskExecutor = null;
        return this;
    }

    /**
     * Chooses whether one-shot tasks whose delay has not elapsed still run after {@link
     * TimerExecutorService#shutdown()}, as {@code
     * ScheduledThreadPoolExecutor.setExecuteExistingDelayedTasksAfterShutdownPolicy} does; if not,
     * shutdown cancels them (tasks already due still run).
     *
     * @param execute true (the default) to run them
     * @return this builder
     */
    public TimerExecutorBuilder executeExistingDelayedTasksAfterShutdown(boolean execute) {
        this.executeDelayedAfterShutdown = execute;
        return this;
    }

    /**
     * Chooses whether periodic tasks go on after {@link TimerExecutorService#shutdown()}, as {@code
     * ScheduledThreadPoolExecutor.setContinueExistingPeriodicTasksAfterShutdownPolicy} does; if
     * not, shutdown cancels them, and a run in progress is the last.
     *
     * @param continueExisting false (the default) to cancel them
     * @return this builder
     */
    public TimerExecutorBuilder continueExistingPeriodicTasksAfterShutdown(boolean continueExisting) {
        this.continuePeriodicAfterShutdown = continueExisting;
        return this;
    }

    /**
     * Builds an executor over a timer it borrows: it never closes the timer, which others may use
     * too. Close the timer only after the executor has terminated: the tasks of a closed timer
     * never run, and the executor would wait for them forever.
     *
     * @param timer keeps the delays; not closed
     * @return the running executor
     * @throws NullPointerException if {@code timer} is null
     * @throws IllegalArgumentException if {@code timer} is closed
     */
    public TimerExecutorService build(Timer timer) {
        Objects.requireNonNull(timer, "timer");
        if (timer.isClosed()) {
            throw new IllegalArgumentException("timer is closed: " + timer);
        }
        return make(timer, false);
    }

    /**
     * Starts a timer thread with the {@link Timers#builder()} defaults and builds an executor that
     * owns it: the timer closes when the executor terminates.
     *
     * @return the running executor
     */
    public TimerExecutorService startTimerThread() {
        return startTimerThread(Timers.builder());
    }

    /**
     * Starts a timer thread as {@code timerBuilder} describes it (its structure, tick, clock...) and
     * builds an executor that owns it: the timer closes when the executor terminates.
     *
     * @param timerBuilder the timer's settings
     * @return the running executor
     * @throws NullPointerException if {@code timerBuilder} is null
     */
    public TimerExecutorService startTimerThread(TimerBuilder timerBuilder) {
        Objects.requireNonNull(timerBuilder, "timerBuilder");
        return make(timerBuilder.startTimerThread(), true);
    }

    private TimerExecutorService make(Timer timer, boolean ownsTimer) {
        Executor tasks = taskExecutor;
        ExecutorService owned = null;
        if (ownedTaskExecutor != null) {
            try {
                owned = ownedTaskExecutor.get();
            } catch (RuntimeException e) {
                if (ownsTimer) {
                    timer.close();
                }
                throw e;
            }
            tasks = owned;
        }
        ExecutorService ownedTasks = owned;
        Runnable onTermination = () -> {
            if (ownedTasks != null) {
                ownedTasks.shutdown();
            }
            if (ownsTimer) {
                timer.close();
            }
        };
        return new TimerExecutor(
                new RunState(timer, tasks, executeDelayedAfterShutdown, continuePeriodicAfterShutdown, onTermination));
    }
}
