package dev.hourglass.bench.driver;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * JMH secondary results of the lateness benchmarks: percentiles of fire time minus deadline, in
 * nanoseconds, and how many timers ran early. JMH sums these counters over the measurement
 * iterations, so each is divided by their count: the final score is the mean per iteration.
 *
 * <p>Complexity: O(1). Ordering: not applicable. Thread-safety: one benchmark thread.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
public class LatenessCounters {

    /** Median lateness, ns. */
    public double latenessP50Nanos;

    /** 99th percentile of lateness, ns. */
    public double latenessP99Nanos;

    /** 99.9th percentile of lateness, ns. */
    public double latenessP999Nanos;

    /** Largest lateness, ns. */
    public double latenessMaxNanos;

    /** Timers that ran before their deadline (counted as 0 late in the percentiles). */
    public double earlyFires;

    private int iterations = 1;

    /** Makes the counters; JMH calls it. */
    public LatenessCounters() {}

    /**
     * Reads the measurement iteration count.
     *
     * @param params the run's parameters
     */
    @Setup(Level.Trial)
    public void join(BenchmarkParams params) {
        iterations = params.getMeasurement().getCount();
    }

    void set(long p50, long p99, long p999, long max, long early) {
        latenessP50Nanos = (double) p50 / iterations;
        latenessP99Nanos = (double) p99 / iterations;
        latenessP999Nanos = (double) p999 / iterations;
        latenessMaxNanos = (double) max / iterations;
        earlyFires = (double) early / iterations;
    }
}
