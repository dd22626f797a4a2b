package dev.hourglass.bench.driver;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * JMH secondary result of the fire-heavy benchmark: nanoseconds from the common deadline until the
 * last timer ran, per timer. JMH sums it over the measurement iterations, so it is divided by their
 * count: the final score is the mean per iteration.
 *
 * <p>Complexity: O(1). Ordering: not applicable. Thread-safety: one benchmark thread.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
public class FireCounters {

    /** Wall ns per fired timer, from the deadline to the last run. */
    public double nsPerFired;

    private int iterations = 1;

    /** Makes the counters; JMH calls it. */
    public FireCounters() {}

    /**
     * Reads the measurement iteration count.
     *
     * @param params the run's parameters
     */
    @Setup(Level.Trial)
    public void join(BenchmarkParams params) {
        iterations = params.getMeasurement().getCount();
    }

    void set(double nanosPerFired) {
        nsPerFired = nanosPerFired / iterations;
    }
}
