package dev.hourglass.bench.driver;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Reads the CPU time ({@link ThreadMXBean#getThreadCpuTime}) of a timer's background threads over
 * each iteration: marked when the iteration starts, measured when every benchmark thread has stopped
 * and the timer has caught up with what they handed it, before any trial teardown closes the timer.
 * The load divides by the wall time from the mark to the end of the catching up. A thread started during the iteration counts
 * from its start. Then, outside the wall time, it times the round trip of a value between two
 * threads ({@link CoreRoundTrip}), a hint of the machine's state. Each benchmark thread's {@link
 * WorkerCpu} reads the results.
 *
 * <p>Complexity: O(threads) per mark and measure. Ordering: not applicable.
 *
 * <p>Thread-safety: JMH calls the marks on one thread at a time; the results are published through
 * volatile fields.
 */
@State(Scope.Benchmark)
public class WorkerMeter {

    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    static {
        if (!CPU.isThreadCpuTimeSupported()) {
            throw new IllegalStateException("this JVM cannot read a thread's CPU time");
        }
        CPU.setThreadCpuTimeEnabled(true);
    }

    /** Round trips per probe: about 0.5 to 3 ms at the round trips seen on the project's VMs. */
    private static final int ROUND_TRIPS = 5_000;

    /** The longest a probe runs, where other threads keep the cores busy and each trip waits. */
    private static final long PROBE_LIMIT_NANOS = 20_000_000;

    private final List<WorkerCpu> counters = new CopyOnWriteArrayList<>();
    private final Map<Long, Long> baseline = new HashMap<>();
    private TimerUnderTest timer;
    private long markedAt;
    private volatile double cpuNanosPerOp;
    private volatile double load;
    private volatile double roundTripNanos;

    /** Makes the meter; JMH calls it. */
    public WorkerMeter() {}

    void watch(TimerUnderTest timer) {
        this.timer = timer;
    }

    void register(WorkerCpu counter) {
        counters.add(counter);
    }

    /** Takes the iteration's starting point; benchmarks that prepare each iteration mark again. */
    @Setup(Level.Iteration)
    public void mark() {
        baseline.clear();
        for (Thread thread : timer.workers()) {
            baseline.put(thread.getId(), Math.max(0, CPU.getThreadCpuTime(thread.getId())));
        }
        markedAt = System.nanoTime();
    }

    /**
     * Once every benchmark thread has stopped, lets the timer catch up with the work handed to it
     * ({@link TimerUnderTest#flush()}), then reads the CPU its threads used since the mark; then
     * times the round trip.
     */
    @TearDown(Level.Iteration)
    public void measure() {
        timer.flush();
        long wall = System.nanoTime() - markedAt;
        long cpu = 0;
        for (Thread thread : timer.workers()) {
            long now = CPU.getThreadCpuTime(thread.getId());
            if (now >= 0) {
                cpu += now - baseline.getOrDefault(thread.getId(), 0L);
            }
        }
        long ops = 0;
        for (WorkerCpu counter : counters) {
            ops += counter.ops;
        }
        cpuNanosPerOp = ops == 0 ? 0 : (double) cpu / ops;
        load = wall <= 0 ? 0 : (double) cpu / wall;
        roundTripNanos = CoreRoundTrip.nanos(ROUND_TRIPS, PROBE_LIMIT_NANOS);
    }

    double cpuNanosPerOp() {
        return cpuNanosPerOp;
    }

    double load() {
        return load;
    }

    double roundTripNanos() {
        return roundTripNanos;
    }
}
