package dev.hourglass.executor;

import static java.util.concurrent.TimeUnit.DAYS;
import static java.util.concurrent.TimeUnit.NANOSECONDS;

import dev.hourglass.timer.Timer;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The {@link TimerExecutorService}: each call checks its arguments and makes a {@link
 * ScheduledTask}; {@link RunState} keeps the life of the executor. It extends {@link
 * AbstractExecutorService}, the JDK's skeleton, for {@code invokeAll} and {@code invokeAny}.
 *
 * <p>Complexity and thread-safety: see {@link TimerExecutorService}.
 */
final class TimerExecutor extends AbstractExecutorService implements TimerExecutorService {

    private final RunState state;

    TimerExecutor(RunState state) {
        this.state = state;
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        Objects.requireNonNull(command, "command");
        return start(new RunnableCall(command), delayNanos(delay, unit), 0);
    }

    @Override
    public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
        Objects.requireNonNull(callable, "callable");
        return start(callable, delayNanos(delay, unit), 0);
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
        Objects.requireNonNull(command, "command");
        long first = delayNanos(initialDelay, unit);
        return start(new RunnableCall(command), first, positiveNanos("period", period, unit));
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
        Objects.requireNonNull(command, "command");
        long first = delayNanos(initialDelay, unit);
        return start(new RunnableCall(command), first, -positiveNanos("delay", delay, unit));
    }

    /** Runs {@code command} at once, as {@code schedule(command, 0, NANOSECONDS)}. */
    @Override
    public void execute(Runnable command) {
        schedule(command, 0, NANOSECONDS);
    }

    @Override
    public ScheduledFuture<?> submit(Runnable task) {
        return schedule(task, 0, NANOSECONDS);
    }

    @Override
    public <T> ScheduledFuture<T> submit(Runnable task, T result) {
        Objects.requireNonNull(task, "task");
        return schedule(Executors.callable(task, result), 0, NANOSECONDS);
    }

    @Override
    public <T> ScheduledFuture<T> submit(Callable<T> task) {
        return schedule(task, 0, NANOSECONDS);
    }

    @Override
    public void shutdown() {
        state.shutdown();
    }

    @Override
    public List<Runnable> shutdownNow() {
        return state.shutdownNow();
    }

    @Override
    public boolean isShutdown() {
        return state.isShutdown();
    }

    @Override
    public boolean isTerminated() {
        return state.isTerminated();
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return state.awaitTermination(timeout, Objects.requireNonNull(unit, "unit"));
    }

    @Override
    public void close() {
        if (isTerminated()) {
            return;
        }
        shutdown();
        boolean interrupted = false;
        boolean terminated = false;
        while (!terminated) {
            try {
                terminated = awaitTermination(1, DAYS);
            } catch (InterruptedException e) {
                if (!interrupted) {
                    shutdownNow();
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public Timer timer() {
        return state.timer;
    }

    @Override
    public long rejectedCount() {
        return state.rejectedCount();
    }

    @Override
    public long failedCount() {
        return state.failedCount();
    }

    @Override
    public String toString() {
        return "TimerExecutor[" + state + ", " + state.timer + "]";
    }

    private <V> ScheduledTask<V> start(Callable<V> callable, long delayNanos, long period) {
        long sequence = state.nextSequence();
        long deadline = state.clock.nanoTime() + delayNanos;
        ScheduledTask<V> task = period == 0
                ? new ScheduledTask<>(state, callable, deadline, sequence)
                : new PeriodicTask<>(state, callable, deadline, sequence, period);
        // Linked before it is armed: a shutdown from here on finds it and applies its policy.
        state.admit(task);
        try {
            task.arm(delayNanos);
        } catch (RejectedExecutionException e) {
            task.abandon();
            state.rejected();
            throw e;
        }
        return task;
    }

    /** A delay in nanoseconds: none is negative, none longer than the timer's longest. */
    private static long delayNanos(long delay, TimeUnit unit) {
        long nanos = Objects.requireNonNull(unit, "unit").toNanos(delay);
        return Math.min(Math.max(nanos, 0), Timer.MAX_DELAY_NANOS);
    }

    private static long positiveNanos(String name, long value, TimeUnit unit) {
        Objects.requireNonNull(unit, "unit");
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be positive: " + value + " " + unit);
        }
        return Math.min(unit.toNanos(value), Timer.MAX_DELAY_NANOS);
    }
}
