package dev.hourglass.bench.map;

import dev.hourglass.bench.MachineTooBusyException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
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
 * Expiry without readers: each iteration puts {@code size} entries (not measured) whose deadlines
 * are spread evenly over one second, starting far enough ahead that the puts are over (200 ms plus
 * 10 µs per entry the first time, then 200 ms plus three times the longest fill so far plus 1 µs per
 * entry), then waits until the map has reported every one expired. Results: the wall time
 * of the wait (ms, primary, which includes the spread), {@code cpuNanosPerExpiry}, the CPU of the
 * map's threads and of the waiting thread per expired entry, {@code maxLatenessMs}, how late the
 * latest notice came after its deadline, and {@code mapThreadSleeps}, how often the map's threads
 * went to sleep from the end of the fill until the map settled after the wait (read after the shot,
 * so that reading it is not timed; each sleep ends in a wake-up, whose cost {@code
 * ThreadWakeBenchmark} measures for a bare thread).
 *
 * <p>Warm-up: before JMH's own warm-up shots, unmeasured rounds of the same fill and wait, whole
 * rounds of {@code size} entries until at least {@code jitWarmupExpiries} have expired (300,000
 * unless told otherwise), at most {@value #MAX_WARMUP_ROUNDS} rounds. It aims at the maps' steady
 * state rather than the JIT's warm-up: each map's pass code runs once per pass, not per entry, so
 * the JIT compiles it late, and two shots of 10,000 entries cost more than later ones (see
 * docs/expiring-map.md).
 *
 * <p>Complexity, ordering: not applicable. Thread-safety: one benchmark thread.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
        value = 3,
        jvmArgsAppend = {"-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 2)
@Measurement(iterations = 5)
public class ExpiringMapExpiryBenchmark {

    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();
    private static final Object VALUE = new Object();
    private static final long SPREAD_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long LEAD_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
    private static final long LEAD_NANOS_PER_ENTRY = 1_000;

    /** The first iteration's lead per entry, before any fill was timed (10 s for a million). */
    private static final long FIRST_LEAD_NANOS_PER_ENTRY = 10_000;

    private static final long PATIENCE_SECONDS = 60;

    /** The most unmeasured rounds, each a second or two, whatever the size. */
    static final int MAX_WARMUP_ROUNDS = 30;

    /** The map under test: see {@link MapUnderTest#open}. */
    @Param({"HOURGLASS", "CAFFEINE", "HOURGLASS_1S_TICK"})
    public String impl;

    /** Entries that expire per iteration. */
    @Param({"10000", "1000000"})
    public int size;

    /** Entries to expire in unmeasured rounds before JMH's warm-up (see the class comment). */
    @Param("300000")
    public int jitWarmupExpiries;

    private MapUnderTest map;
    private MapMeter meter;
    private ExpiryLog log;
    private Integer[] keys;
    private long longestFill = -1;

    /** Makes the benchmark; JMH calls it. */
    public ExpiringMapExpiryBenchmark() {}

    /**
     * Opens the map and warms it up.
     *
     * @param meter reads the map's threads' CPU
     * @throws InterruptedException if interrupted while warming up
     */
    @Setup(Level.Trial)
    public void open(MapMeter meter) throws InterruptedException {
        if (size < 1) {
            throw new IllegalArgumentException("size must be positive: " + size);
        }
        if (jitWarmupExpiries < 0) {
            throw new IllegalArgumentException("jitWarmupExpiries must not be negative: " + jitWarmupExpiries);
        }
        this.meter = meter;
        log = new ExpiryLog(size);
        map = MapUnderTest.open(impl, log::expired);
        meter.watch(map);
        keys = new Integer[size];
        for (int i = 0; i < size; i++) {
            keys[i] = i;
        }
        warmUp();
    }

    /** Runs the unmeasured rounds of the class comment. */
    private void warmUp() throws InterruptedException {
        for (int round = 0; round < MAX_WARMUP_ROUNDS && (long) round * size < jitWarmupExpiries; round++) {
            fill();
            log.await(PATIENCE_SECONDS);
        }
    }

    /** Closes the map. */
    @TearDown(Level.Trial)
    public void close() {
        map.close();
    }

    /**
     * Puts the iteration's entries, lets the map settle, and restarts the CPU meter.
     *
     * @throws MachineTooBusyException if the puts took so long that the first deadline is less than
     *     50 ms away
     */
    @Setup(Level.Iteration)
    public void fill() {
        long step = SPREAD_NANOS / size;
        long started = System.nanoTime();
        long lead = LEAD_NANOS
                + (longestFill < 0 ? size * FIRST_LEAD_NANOS_PER_ENTRY : 3 * longestFill + size * LEAD_NANOS_PER_ENTRY);
        long first = started + lead;
        log.start(first, step);
        for (int i = 0; i < size; i++) {
            map.put(keys[i], VALUE, Math.max(1, first + i * step - System.nanoTime()));
        }
        map.settle();
        long took = System.nanoTime() - started;
        longestFill = Math.max(longestFill, took);
        long left = first - System.nanoTime();
        if (left < TimeUnit.MILLISECONDS.toNanos(50)) {
            throw new MachineTooBusyException("putting " + size + " entries", took / 1_000_000, left / 1_000_000, 50);
        }
        meter.mark();
    }

    /**
     * Waits until every entry was reported expired.
     *
     * @param out receives the CPU per expired entry and the lateness
     * @throws InterruptedException if interrupted while waiting
     */
    @Benchmark
    public void expireAll(ExpiryCounters out) throws InterruptedException {
        long callerAtStart = CPU.getCurrentThreadCpuTime();
        log.await(PATIENCE_SECONDS);
        long caller = CPU.getCurrentThreadCpuTime() - callerAtStart;
        out.record((double) (caller + meter.cpuSinceMark()) / size, log.maxLateness());
    }
}
