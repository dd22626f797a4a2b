package dev.hourglass.micrometer;

import dev.hourglass.timer.Timer;
import dev.hourglass.timer.TimerStats;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.concurrent.TimeUnit;
import java.util.function.ToLongFunction;

/**
 * The meters of a {@link Timer}: its counters and how late its tasks ran, read from {@link
 * Timer#stats()} when the registry is read, so binding adds nothing to scheduling or firing.
 *
 * <pre>{@code
 * TimerMetrics.of(timer, "requests", Tags.of("region", "eu")).bindTo(registry);
 * }</pre>
 *
 * <table>
 *   <caption>Meters, each tagged {@code name} and the extra tags</caption>
 *   <tr><th>name</th><th>type</th><th>meaning</th></tr>
 *   <tr><td>{@code hourglass.timer.scheduled}</td><td>function counter</td><td>timeouts scheduled</td></tr>
 *   <tr><td>{@code hourglass.timer.fired}</td><td>function counter</td><td>task runs started</td></tr>
 *   <tr><td>{@code hourglass.timer.cancelled}</td><td>function counter</td><td>timeouts cancelled</td></tr>
 *   <tr><td>{@code hourglass.timer.rejected}</td><td>function counter</td><td>schedules the pending
 *       limit refused</td></tr>
 *   <tr><td>{@code hourglass.timer.task.exceptions}</td><td>function counter</td><td>exceptions sent
 *       to the exception handler</td></tr>
 *   <tr><td>{@code hourglass.timer.pending}</td><td>gauge</td><td>timeouts waiting to run</td></tr>
 *   <tr><td>{@code hourglass.timer.lateness}</td><td>time gauge, tagged {@code quantile} 0.5, 0.99
 *       and 0.999</td><td>start of a run minus its deadline, by percentile</td></tr>
 *   <tr><td>{@code hourglass.timer.lateness.max}</td><td>time gauge</td><td>the largest
 *       lateness</td></tr>
 * </table>
 *
 * <p>Why lateness is a gauge per quantile: the timer keeps its own histogram (log-linear buckets,
 * percentiles within 6.25%) without a shared atomic on the schedule path; a Micrometer {@code
 * Timer} or {@code DistributionSummary} would record every run a second time, on the firing path,
 * and a {@code FunctionTimer} carries only a count and a total, which the timer does not keep. So
 * the binder publishes the percentiles the timer already computes, as Micrometer publishes a
 * client-side percentile: one gauge per quantile, tagged {@code quantile}. Like those, they are
 * not aggregable across instances; unlike them, they cover every run since the timer started
 * rather than a decaying window.
 *
 * <p>Meters hold the timer weakly, as Micrometer's function meters do: once the timer is garbage
 * they read NaN. Several timers may be bound to one registry under different names; give each the
 * same extra tag keys, as Prometheus wants one set of label names per meter name.
 *
 * <p>Complexity: binding O(1); each read of a meter takes one {@link TimerStats} snapshot, O(1) in
 * the number of pending timeouts. Thread-safety: immutable; meters may be read from any thread.
 */
public final class TimerMetrics implements MeterBinder {

    /** The quantiles published as {@code hourglass.timer.lateness}. */
    private static final double[] QUANTILES = {0.5, 0.99, 0.999};

    private final Timer timer;
    private final Tags tags;

    private TimerMetrics(Timer timer, Tags tags) {
        this.timer = timer;
        this.tags = tags;
    }

    /**
     * Makes the binder of {@code timer}'s meters.
     *
     * @param timer the timer, held weakly by the meters
     * @param name the value of the {@code name} tag, which tells this timer's series from others'
     * @param extraTags more tags for every meter, e.g. {@code Tags.of("region", "eu")}
     * @return the binder; {@link #bindTo} registers the meters
     * @throws NullPointerException if an argument is null, naming it
     */
    public static TimerMetrics of(Timer timer, String name, Iterable<Tag> extraTags) {
        return new TimerMetrics(MetricTags.require(timer, "timer"), MetricTags.of(name, extraTags));
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        counter(registry, "hourglass.timer.scheduled", "timeouts scheduled, periodic ones once", TimerStats::scheduled);
        counter(registry, "hourglass.timer.fired", "task runs started", TimerStats::fired);
        counter(registry, "hourglass.timer.cancelled", "timeouts cancelled", TimerStats::cancelled);
        counter(registry, "hourglass.timer.rejected", "schedules refused by the pending limit", TimerStats::rejected);
        counter(
                registry,
                "hourglass.timer.task.exceptions",
                "exceptions sent to the exception handler",
                TimerStats::taskExceptions);
        Gauge.builder("hourglass.timer.pending", timer, t -> t.stats().pending())
                .tags(tags)
                .description("timeouts waiting to run")
                .register(registry);
        for (double quantile : QUANTILES) {
            TimeGauge.builder(
                            "hourglass.timer.lateness", timer, TimeUnit.NANOSECONDS, t -> lateness(t.stats(), quantile))
                    .tags(tags)
                    .tag("quantile", Double.toString(quantile))
                    .description("start of a run minus its deadline, percentile since the timer started")
                    .register(registry);
        }
        TimeGauge.builder("hourglass.timer.lateness.max", timer, TimeUnit.NANOSECONDS, t -> t.stats()
                        .latenessMax(TimeUnit.NANOSECONDS))
                .tags(tags)
                .description("the largest lateness since the timer started")
                .register(registry);
    }

    private void counter(MeterRegistry registry, String name, String description, ToLongFunction<TimerStats> count) {
        FunctionCounter.builder(name, timer, t -> count.applyAsLong(t.stats()))
                .tags(tags)
                .description(description)
                .register(registry);
    }

    private static long lateness(TimerStats stats, double quantile) {
        if (quantile == 0.5) {
            return stats.latenessP50(TimeUnit.NANOSECONDS);
        }
        return quantile == 0.99 ? stats.latenessP99(TimeUnit.NANOSECONDS) : stats.latenessP999(TimeUnit.NANOSECONDS);
    }

    @Override
    public String toString() {
        return "TimerMetrics[" + tags + "]";
    }
}
