package dev.hourglass.bench.queue;

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
 * Fire-heavy at the queue level: N timers all due in the same tick (a burst of connections opened
 * together with the same timeout, so their deadlines ascend within the tick), delivered by one poll.
 * The score is the time of that poll, for all N timers: divide by {@code n} for the cost per fired
 * timer (the shootout does).
 *
 * <p>How: each measured iteration is one poll of a freshly filled queue (single-shot). Agrona's
 * wheel has 16 spokes: it gives every spoke the capacity of the fullest, so a wide wheel would hold
 * spokes * n longs. It runs at n = 1e4 only: its schedule looks for a free cell from the start of
 * the spoke, so filling one spoke with 1e6 timers takes ~n^2/2 steps.
 *
 * <p>Complexity: the structure's expiry, N times. Ordering: deadline order of scheduling.
 * Thread-safety: one JMH thread per state.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5)
@Measurement(iterations = 10)
@Fork(
        value = 3,
        jvmArgsAppend = {"-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch"})
public class FireOneTickBenchmark {

    @Param({
        "UNSORTED_LIST",
        "SORTED_LIST",
        "RED_BLACK_TREE",
        "BINARY_HEAP",
        "QUATERNARY_HEAP",
        "SKIP_LIST",
        "SIMPLE_WHEEL",
        "HASHED_WHEEL",
        "SORTED_HASHED_WHEEL",
        "HIERARCHICAL_WHEEL",
        "AGRONA"
    })
    String impl;

    @Param({"10000", "1000000"})
    int n;

    private BenchQueue queue;
    private int fired;

    /** Creates the state; JMH calls it. */
    public FireOneTickBenchmark() {}

    /** Fills a new queue with N timers due within the first tick. */
    @Setup(Level.Iteration)
    public void fill() {
        BenchQueues.requireRun(getClass().getSimpleName(), impl, n);
        queue = null;
        queue = BenchQueues.create(impl, 0, BenchQueues.AGRONA_NARROW_SPOKES, n);
        long span = BenchQueues.TICK_NANOS - 2;
        for (int slot = 0; slot < n; slot++) {
            queue.schedule(slot, 1 + slot * span / n);
        }
        fired = 0;
    }

    /**
     * Delivers all N timers with one poll at the end of the tick.
     *
     * @return how many fired
     */
    @Benchmark
    public int fire() {
        fired = queue.pollAll(BenchQueues.TICK_NANOS);
        return fired;
    }

    /** Fails the run unless every timer fired. */
    @TearDown(Level.Iteration)
    public void check() {
        if (fired != n) {
            throw new IllegalStateException(impl + " fired " + fired + " of " + n + " timers");
        }
    }
}
