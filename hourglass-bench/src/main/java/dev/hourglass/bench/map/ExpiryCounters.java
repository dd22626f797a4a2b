package dev.hourglass.bench.map;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * JMH secondary results of {@link ExpiringMapExpiryBenchmark}: the CPU nanoseconds spent per
 * expired entry by the map's threads and the benchmark thread together ({@code cpuNanosPerExpiry}),
 * the largest lateness of an expiry notice in milliseconds ({@code maxLatenessMs}), and how often
 * the map's threads went to sleep during the shot ({@code mapThreadSleeps}, Linux's voluntary
 * context switches, see {@link ThreadSleeps}; NaN elsewhere). JMH sums
 * counters over the measurement iterations, so each iteration reports its share: the score is the
 * mean.
 *
 * <p>Complexity: O(1). Ordering: not applicable.
 *
 * <p>Thread-safety: one instance per benchmark thread (there is one).
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
public class ExpiryCounters {

    private int shares;
    private double cpuPerExpiry;
    private double latenessMs;
    private MapMeter meter;

    /** Makes the counters; JMH calls it. */
    public ExpiryCounters() {}

    /**
     * Learns the number of measurement iterations and where the sleeps are counted.
     *
     * @param meter counts the map's threads' sleeps over each iteration
     * @param params the run's parameters
     */
    @Setup(Level.Trial)
    public void join(MapMeter meter, BenchmarkParams params) {
        this.meter = meter;
        shares = params.getThreads() * params.getMeasurement().getCount();
    }

    void record(double cpuPerExpiry, long latenessNanos) {
        this.cpuPerExpiry = cpuPerExpiry;
        this.latenessMs = latenessNanos / 1e6;
    }

    /**
     * CPU nanoseconds per expired entry, this iteration's share.
     *
     * @return ns per entry divided by the number of measurement iterations
     */
    public double cpuNanosPerExpiry() {
        return cpuPerExpiry / shares;
    }

    /**
     * The latest expiry notice after its deadline, in ms, this iteration's share.
     *
     * @return ms divided by the number of measurement iterations
     */
    public double maxLatenessMs() {
        return latenessMs / shares;
    }

    /**
     * How often the map's threads went to sleep during the shot (read once the shot is over, before
     * this is), this iteration's share.
     *
     * @return sleeps divided by the number of measurement iterations, NaN where not counted
     */
    public double mapThreadSleeps() {
        return meter.sleeps() / shares;
    }
}
