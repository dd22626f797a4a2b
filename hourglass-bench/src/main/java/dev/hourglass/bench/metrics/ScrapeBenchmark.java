package dev.hourglass.bench.metrics;

import dev.hourglass.micrometer.TimerMetrics;
import dev.hourglass.timer.Timer;
import dev.hourglass.timer.Timers;
import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A Prometheus scrape of one timer's meters ({@link TimerMetrics}) while the timer holds {@code
 * pending} timeouts an hour out (issue 13's target: at most 1 ms with 1e6 pending). Each meter
 * reads the timer's stats, which sum striped counters and walk the lateness histogram's buckets, so
 * the cost should not grow with the pending count.
 *
 * <p>Complexity: O(meters × histogram buckets) per scrape. Ordering: not applicable.
 * Thread-safety: one benchmark thread.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class ScrapeBenchmark {

    /** How many timeouts wait in the timer. */
    @Param({"10000", "1000000"})
    public int pending;

    private Timer timer;
    private PrometheusMeterRegistry registry;

    /** Starts the timer, fills it and binds its meters. */
    @Setup(Level.Trial)
    public void setUp() {
        timer = Timers.builder().startTimerThread();
        Runnable nothing = () -> {};
        for (int i = 0; i < pending; i++) {
            timer.schedule(nothing, Duration.ofHours(1));
        }
        registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        TimerMetrics.of(timer, "bench", Tags.empty()).bindTo(registry);
    }

    /** Closes the timer and the registry. */
    @TearDown(Level.Trial)
    public void tearDown() {
        timer.close();
        registry.close();
    }

    /**
     * One scrape, as Prometheus would make it.
     *
     * @return the exposition text
     */
    @Benchmark
    public String scrape() {
        return registry.scrape();
    }
}
