package dev.hourglass.bench.driver;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * JMH secondary result of {@link ThreadWakeBenchmark}: the CPU nanoseconds a thread spends per
 * timed park and wake ({@code cpuNanosPerWake}). JMH sums counters over the measurement
 * iterations, so each iteration reports its share: the score is the mean.
 *
 * <p>Complexity: O(1). Ordering: not applicable.
 *
 * <p>Thread-safety: one instance per benchmark thread (there is one).
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
public class WakeCounters {

    private int shares;
    private double cpuPerWake;

    /** Makes the counters; JMH calls it. */
    public WakeCounters() {}

    /**
     * Learns the number of measurement iterations.
     *
     * @param params the run's parameters
     */
    @Setup(Level.Trial)
    public void join(BenchmarkParams params) {
        shares = params.getThreads() * params.getMeasurement().getCount();
    }

    /** Keeps this iteration's CPU nanoseconds per park and wake. */
    void record(double cpuPerWake) {
        this.cpuPerWake = cpuPerWake;
    }

    /**
     * CPU nanoseconds per park and wake, this iteration's share.
     *
     * @return ns per wake divided by the number of measurement iterations
     */
    public double cpuNanosPerWake() {
        return cpuPerWake / shares;
    }
}
