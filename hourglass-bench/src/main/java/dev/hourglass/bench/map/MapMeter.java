package dev.hourglass.bench.map;

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
 * Reads the CPU time of a map's own threads over each iteration: marked when the iteration starts
 * (and again by benchmarks that prepare each iteration), measured once every benchmark thread has
 * stopped and the map has settled what they handed it. Each benchmark thread's {@link MapCpu}
 * reads the result.
 *
 * <p>Complexity: O(threads of the JVM) per mark and measure (see {@link ThreadSleeps}). Ordering: not applicable.
 *
 * <p>Thread-safety: JMH calls the marks on one thread at a time; the result is published through a
 * volatile field.
 */
@State(Scope.Benchmark)
public class MapMeter {

    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    static {
        if (!CPU.isThreadCpuTimeSupported()) {
            throw new IllegalStateException("this JVM cannot read a thread's CPU time");
        }
        CPU.setThreadCpuTimeEnabled(true);
    }

    private final List<MapCpu> counters = new CopyOnWriteArrayList<>();
    private final Map<Long, Long> baseline = new HashMap<>();
    private MapUnderTest map;
    private Map<Thread, Long> sleepsAtMark;
    private volatile double cpuNanosPerOp;
    private volatile double sleeps = Double.NaN;

    /** Makes the meter; JMH calls it. */
    public MapMeter() {}

    void watch(MapUnderTest map) {
        this.map = map;
    }

    void register(MapCpu counter) {
        counters.add(counter);
    }

    /** Takes the iteration's starting point. */
    @Setup(Level.Iteration)
    public void mark() {
        baseline.clear();
        for (Thread thread : map.workers()) {
            baseline.put(thread.getId(), Math.max(0, CPU.getThreadCpuTime(thread.getId())));
        }
        sleepsAtMark = ThreadSleeps.voluntarySwitches(map.workers());
    }

    /** Lets the map settle, then reads the CPU its threads used and how often they slept since the mark. */
    @TearDown(Level.Iteration)
    public void measure() {
        map.settle();
        long cpu = cpuSinceMark();
        long ops = 0;
        for (MapCpu counter : counters) {
            ops += counter.ops;
        }
        cpuNanosPerOp = ops == 0 ? 0 : (double) cpu / ops;
        sleeps = sleepsSinceMark();
    }

    /** The CPU nanoseconds the map's threads used since the mark; a thread started since counts whole. */
    long cpuSinceMark() {
        long cpu = 0;
        for (Thread thread : map.workers()) {
            long now = CPU.getThreadCpuTime(thread.getId());
            if (now >= 0) {
                cpu += now - baseline.getOrDefault(thread.getId(), 0L);
            }
        }
        return cpu;
    }

    /**
     * How often the map's threads went to sleep since the mark (see {@link ThreadSleeps}): a thread
     * started since counts whole, one ended since not at all; NaN where the system does not count
     * sleeps.
     */
    private double sleepsSinceMark() {
        Map<Thread, Long> now = ThreadSleeps.voluntarySwitches(map.workers());
        if (now == null || sleepsAtMark == null) {
            return Double.NaN;
        }
        long sum = 0;
        for (Map.Entry<Thread, Long> count : now.entrySet()) {
            sum += count.getValue() - sleepsAtMark.getOrDefault(count.getKey(), 0L);
        }
        return sum;
    }

    /** How often the map's threads went to sleep in the last measured iteration, or NaN. */
    double sleeps() {
        return sleeps;
    }

    double cpuNanosPerOp() {
        return cpuNanosPerOp;
    }
}
