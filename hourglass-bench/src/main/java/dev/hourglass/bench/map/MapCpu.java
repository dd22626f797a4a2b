package dev.hourglass.bench.map;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * JMH secondary results: the CPU time of the map's own threads per operation of all benchmark
 * threads ({@code workerCpuNanos}) and the benchmark thread's own CPU time per operation ({@code
 * callerCpuNanos}), which on a busy machine tells the caller's cost better than the wall-clock
 * primary result. Benchmarks count their operations in {@link #ops}. JMH sums these counters over
 * the benchmark threads and the measurement iterations, so each thread reports its share: within one
 * fork the final score is the mean per iteration. JMH also sums over forks, so with several forks
 * its score is that many times the mean: read the per-iteration raw data instead, as {@code
 * hourglass-bench/scripts/cpu-table.py} does.
 *
 * <p>Complexity: O(1). Ordering: not applicable.
 *
 * <p>Thread-safety: one instance per benchmark thread.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
public class MapCpu {

    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    /** Operations this thread did in the iteration; not a counter itself (not public). */
    long ops;

    private MapMeter meter;
    private int shares;
    private long callerCpuAtStart;
    private double callerCpuPerOp;

    /** Makes the counters; JMH calls it. */
    public MapCpu() {}

    /**
     * Joins the meter of the benchmark.
     *
     * @param meter the benchmark's meter
     * @param params the run's parameters, for the thread and measurement iteration counts
     */
    @Setup(Level.Trial)
    public void join(MapMeter meter, BenchmarkParams params) {
        this.meter = meter;
        this.shares = params.getThreads() * params.getMeasurement().getCount();
        meter.register(this);
    }

    /** Starts counting an iteration, on the benchmark thread. */
    @Setup(Level.Iteration)
    public void reset() {
        ops = 0;
        callerCpuAtStart = CPU.getCurrentThreadCpuTime();
    }

    /** Ends counting an iteration, on the benchmark thread. */
    @TearDown(Level.Iteration)
    public void stop() {
        long used = CPU.getCurrentThreadCpuTime() - callerCpuAtStart;
        callerCpuPerOp = ops == 0 ? 0 : (double) used / ops;
    }

    /**
     * The benchmark thread's own CPU nanoseconds per operation, this thread's share.
     *
     * @return ns per op divided by the numbers of benchmark threads and measurement iterations
     */
    public double callerCpuNanos() {
        return callerCpuPerOp / shares;
    }

    /**
     * The map's threads' CPU nanoseconds per operation, this thread's share.
     *
     * @return ns per op divided by the numbers of benchmark threads and measurement iterations
     */
    public double workerCpuNanos() {
        return meter.cpuNanosPerOp() / shares;
    }
}
