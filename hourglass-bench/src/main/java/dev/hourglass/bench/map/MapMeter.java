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
 * <p>Complexity: O(threads) per mark and measure. Ordering: not applicable.
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
    private long sleepsAtMark;
    private volatile double cpuNanosPerOp;

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

    /** Lets the map settle, then reads the CPU its threads used since the mark. */
    @TearDown(Level.Iteration)
    public void measure() {
        map.settle();
        long cpu = cpuSinceMark();
        long ops = 0;
        for (MapCpu counter : counters) {
            ops += counter.ops;
        }
        cpuNanosPerOp = ops == 0 ? 0 : (double) cpu / ops;
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
     * How often the map's threads went to sleep since the mark (see {@link ThreadSleeps}); a thread
     * started since counts whole; NaN where the system does not count sleeps.
     */
    double sleepsSinceMark() {
        long now = ThreadSleeps.voluntarySwitches(map.workers());
        return now < 0 || sleepsAtMark < 0 ? Double.NaN : now - sleepsAtMark;
    }

    double cpuNanosPerOp() {
        return cpuNanosPerOp;
    }
}
