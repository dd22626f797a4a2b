package dev.hourglass.timer;

import java.util.concurrent.TimeUnit;

/**
 * A snapshot of a {@link Timer}'s counters and of how late its tasks ran (start minus deadline),
 * with percentiles accurate to within 6.25%. A task run on an executor's thread reads the clock as
 * it starts. Tasks run on the driver's thread share readings in groups of at most 32 of one turn,
 * a group growing only while its tasks take under a microsecond each: a task's start is its
 * group's reading, so its lateness is never overstated and falls short only by the run time of the
 * tasks before it in its group.
 *
 * <p>Complexity: O(1) to read. Ordering: not applicable.
 *
 * <p>Thread-safety: immutable.
 */
public final class TimerStats {

    private final long scheduled;
    private final long fired;
    private final long cancelled;
    private final long pending;
    private final long rejected;
    private final long taskExceptions;
    private final long runs;
    private final long p50;
    private final long p99;
    private final long p999;
    private final long max;

    TimerStats(
            long scheduled,
            long fired,
            long cancelled,
            long pending,
            long rejected,
            long taskExceptions,
            LatenessHistogram lateness) {
        this.scheduled = scheduled;
        this.fired = fired;
        this.cancelled = cancelled;
        this.pending = pending;
        this.rejected = rejected;
        this.taskExceptions = taskExceptions;
        long[] counts = new long[LatenessHistogram.bucketCount()];
        this.runs = lateness.snapshot(counts);
        this.max = lateness.max();
        this.p50 = LatenessHistogram.percentile(counts, runs, 0.50, max);
        this.p99 = LatenessHistogram.percentile(counts, runs, 0.99, max);
        this.p999 = LatenessHistogram.percentile(counts, runs, 0.999, max);
    }

    /**
     * Returns how many timeouts were scheduled, periodic ones counted once.
     *
     * @return the count
     */
    public long scheduled() {
        return scheduled;
    }

    /**
     * Returns how many task runs started, each run of a periodic timeout counted.
     *
     * @return the count
     */
    public long fired() {
        return fired;
    }

    /**
     * Returns how many timeouts were cancelled, by {@link Timeout#cancel()} or by closing.
     *
     * @return the count
     */
    public long cancelled() {
        return cancelled;
    }

    /**
     * Returns how many timeouts are waiting to run: scheduled, not yet run (one-shot) and not
     * cancelled.
     *
     * @return the count
     */
    public long pending() {
        return pending;
    }

    /**
     * Returns how many schedules the pending limit refused with {@link
     * java.util.concurrent.RejectedExecutionException} (a schedule after closing, refused with
     * {@link IllegalStateException}, is not counted).
     *
     * @return the count
     */
    public long rejected() {
        return rejected;
    }

    /**
     * Returns how many exceptions went to the timer's exception handler: thrown by a task, by a
     * {@link TimerTask}'s cancellation notice, or by the executor refusing a run.
     *
     * @return the count
     */
    public long taskExceptions() {
        return taskExceptions;
    }

    /**
     * Returns how many runs the lateness figures cover.
     *
     * @return the count
     */
    public long latenessCount() {
        return runs;
    }

    /**
     * Returns the median lateness.
     *
     * @param unit the unit of the answer
     * @return the 50th percentile of start time minus deadline
     */
    public long latenessP50(TimeUnit unit) {
        return unit.convert(p50, TimeUnit.NANOSECONDS);
    }

    /**
     * Returns the 99th percentile of lateness.
     *
     * @param unit the unit of the answer
     * @return the 99th percentile of start time minus deadline
     */
    public long latenessP99(TimeUnit unit) {
        return unit.convert(p99, TimeUnit.NANOSECONDS);
    }

    /**
     * Returns the 99.9th percentile of lateness.
     *
     * @param unit the unit of the answer
     * @return the 99.9th percentile of start time minus deadline
     */
    public long latenessP999(TimeUnit unit) {
        return unit.convert(p999, TimeUnit.NANOSECONDS);
    }

    /**
     * Returns the largest lateness seen.
     *
     * @param unit the unit of the answer
     * @return the largest start time minus deadline
     */
    public long latenessMax(TimeUnit unit) {
        return unit.convert(max, TimeUnit.NANOSECONDS);
    }

    @Override
    public String toString() {
        return "TimerStats[scheduled=" + scheduled + ", fired=" + fired + ", cancelled=" + cancelled + ", pending="
                + pending + ", rejected=" + rejected + ", taskExceptions=" + taskExceptions + ", lateness(ns) p50="
                + p50 + " p99=" + p99 + " p999=" + p999 + " max=" + max + " of "
                + runs
                + "]";
    }
}
