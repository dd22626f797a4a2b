package dev.hourglass.bench.driver;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * JMH secondary results: the CPU time of the timer's background threads during the iteration, per
 * operation of all benchmark threads ({@code workerCpuNanos}, ns/op) and as a share of one core
 * ({@code workerCpuLoad}, 1.0 = one core busy all the time); and the CPU time of the benchmark
 * thread itself per operation ({@code callerCpuNanos}), which on a busy machine tells the caller's
 * cost better than the wall-clock primary result, inflated by waiting for a core. Benchmarks count
 * their operations in {@link #ops}. JMH sums these counters over the benchmark threads and over the
 * measurement iterations, so each thread reports its share, divided by the thread count and by the
 * measurement iteration count: within one fork the final score is the mean per iteration (the
 * caller's figure the mean of the threads), while the per-iteration lines of JMH's log show that
 * share. JMH also sums over forks, so with several forks its score is that many times the mean:
 * read the per-iteration raw data instead, as {@code hourglass-bench/scripts/cpu-table.py} does.
 * The first benchmark thread also reports the round trip between two threads that the meter timed
 * after the iteration ({@code coreRoundTripNanos}, see {@link CoreRoundTrip}).
 *
 * <p>Complexity: O(1). Ordering: not applicable.
 *
 * <p>Thread-safety: one instance per benchmark thread.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
public class WorkerCpu {

    /** Operations this thread did in the iteration; not a counter itself (not public). */
    long ops;

    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    private WorkerMeter meter;
    private int shares;
    private int measurements;
    private boolean reportsRoundTrip;
    private long callerCpuAtStart;
    private double callerCpuPerOp;

    /** Makes the counters; JMH calls it. */
    public WorkerCpu() {}

    /**
     * Joins the meter of the benchmark.
     *
     * @param meter the benchmark's meter
     * @param params the run's parameters, for the thread and measurement iteration counts
     * @param thread this thread's parameters: the first benchmark thread reports the round trip
     */
    @Setup(Level.Trial)
    public void join(WorkerMeter meter, BenchmarkParams params, ThreadParams thread) {
        this.meter = meter;
        this.measurements = params.getMeasurement().getCount();
        this.shares = params.getThreads() * measurements;
        this.reportsRoundTrip = thread.getThreadIndex() == 0;
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
     * The background threads' CPU nanoseconds per operation, this thread's share.
     *
     * @return ns per op divided by the numbers of benchmark threads and measurement iterations
     */
    public double workerCpuNanos() {
        return meter.cpuNanosPerOp() / shares;
    }

    /**
     * Nanoseconds per round trip of a value between two threads, timed by the meter after the
     * iteration, reported by the first benchmark thread (the others report 0, so JMH's sum over
     * threads is the figure).
     *
     * @return ns per round trip divided by the number of measurement iterations
     */
    public double coreRoundTripNanos() {
        return reportsRoundTrip ? meter.roundTripNanos() / measurements : 0;
    }

    /**
     * The background threads' CPU time over the iteration's wall time, this thread's share.
     *
     * @return cores kept busy divided by the numbers of benchmark threads and measurement iterations
     */
    public double workerCpuLoad() {
        return meter.load() / shares;
    }
}
