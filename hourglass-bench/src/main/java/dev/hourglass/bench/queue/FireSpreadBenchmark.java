package dev.hourglass.bench.queue;

import java.util.SplittableRandom;
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
 * Fire-heavy at the queue level: N timers with deadlines spread at random over one second,
 * scheduled in random order (mixed timeouts), delivered by polling tick by tick through that
 * second. The score is the time of all the polls: divide by {@code n} for the cost per fired timer
 * (the shootout does).
 *
 * <p>How: each measured iteration polls a freshly filled queue once per tick of 2^20 ns until the
 * second has passed (single-shot). Agrona's wheel has 1024 spokes, one rotation per second.
 *
 * <p>Complexity: the structure's expiry N times plus one poll per tick. Ordering: random deadlines.
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
public class FireSpreadBenchmark {

    private static final long SPAN_NANOS = TimeUnit.SECONDS.toNanos(1);

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
    public FireSpreadBenchmark() {}

    /** Fills a new queue with N timers due at random within the next second. */
    @Setup(Level.Iteration)
    public void fill() {
        BenchQueues.requireRun(getClass().getSimpleName(), impl, n);
        queue = null;
        queue = BenchQueues.create(impl, 0, BenchQueues.AGRONA_SECOND_SPOKES, n);
        SplittableRandom random = new SplittableRandom(42);
        for (int slot = 0; slot < n; slot++) {
            queue.schedule(slot, 1 + random.nextLong(SPAN_NANOS));
        }
        fired = 0;
    }

    /**
     * Polls once per tick through the second.
     *
     * @return how many fired
     */
    @Benchmark
    public int fire() {
        BenchQueue q = queue;
        int count = 0;
        for (long now = BenchQueues.TICK_NANOS;
                now < SPAN_NANOS + 2 * BenchQueues.TICK_NANOS;
                now += BenchQueues.TICK_NANOS) {
            count += q.pollAll(now);
        }
        fired = count;
        return count;
    }

    /** Fails the run unless every timer fired. */
    @TearDown(Level.Iteration)
    public void check() {
        if (fired != n) {
            throw new IllegalStateException(impl + " fired " + fired + " of " + n + " timers");
        }
    }
}
