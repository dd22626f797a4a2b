package dev.hourglass.executor;

import java.util.concurrent.Callable;

/**
 * A periodic task of a {@link TimerExecutorService}: a {@link ScheduledTask} with its period, which
 * one-shot tasks do without.
 *
 * <p>Complexity: as {@link ScheduledTask}. Thread-safety: any thread.
 */
final class PeriodicTask<V> extends ScheduledTask<V> {

    /** Nanoseconds: above 0 a fixed rate, below 0 a fixed delay. */
    private final long period;

    PeriodicTask(RunState executor, Callable<V> callable, long deadline, long sequence, long period) {
        super(executor, callable, deadline, sequence);
        this.period = period;
    }

    @Override
    long period() {
        return period;
    }
}
