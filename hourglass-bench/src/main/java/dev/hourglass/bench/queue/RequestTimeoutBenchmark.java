package dev.hourglass.bench.queue;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Request timeouts at the queue level, in steady state: N requests are pending, each with its own
 * timeout drawn from 2 to 4 s; every pair cancels the oldest request (it completed) and schedules a
 * new one. The score is the cost of one pair (a cancel plus a schedule), polls included.
 *
 * <p>How: the N slots form a ring; a pair every simulated microsecond, so a request lives N µs (at
 * most 1 s) and never times out (checked at tear-down). The queue is polled whenever the simulated
 * clock has moved a tick. The queue is filled in deadline order so the sorted list can be filled at
 * all. Agrona's wheel has 2^16 spokes.
 *
 * <p>Complexity: one cancel and one schedule per pair. Ordering: oldest request first. Thread-safety:
 * one JMH thread per state.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 3,
        jvmArgsAppend = {"-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch"})
public class RequestTimeoutBenchmark {

    /** Pairs per benchmark invocation. */
    static final int BATCH = 1000;

    /** Simulated time between two pairs. */
    static final long STEP_NANOS = 1_000;

    private static final int TIMEOUTS = 1 << 12;
    private static final long MIN_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(2);

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
    private long[] timeouts;
    private int next;
    private int cursor;
    private long now;
    private long lastPoll;
    private long fired;

    /** Creates the state; JMH calls it. */
    public RequestTimeoutBenchmark() {}

    /** Fills the queue with N pending requests issued over the last N simulated microseconds. */
    @Setup(Level.Trial)
    public void fill() {
        BenchQueues.requireRun(getClass().getSimpleName(), impl, n);
        SplittableRandom random = new SplittableRandom(42);
        timeouts = new long[TIMEOUTS];
        for (int i = 0; i < TIMEOUTS; i++) {
            timeouts[i] = MIN_TIMEOUT_NANOS + random.nextLong(MIN_TIMEOUT_NANOS);
        }
        queue = BenchQueues.create(impl, 0, BenchQueues.AGRONA_WIDE_SPOKES, n);
        now = 0;
        lastPoll = 0;
        cursor = 0;
        next = 0;
        fired = 0;
        // slot i was issued (n - i) steps ago; pack (deadline, slot) to insert in deadline order
        long[] keyed = new long[n];
        for (int slot = 0; slot < n; slot++) {
            long issued = now - (long) (n - slot) * STEP_NANOS;
            long deadline = issued + timeouts[next++ & (TIMEOUTS - 1)];
            keyed[slot] = (deadline << 20) | slot;
        }
        Arrays.sort(keyed);
        for (long key : keyed) {
            queue.schedule((int) (key & ((1 << 20) - 1)), key >> 20);
        }
    }

    /**
     * Runs {@value #BATCH} pairs of cancel-the-oldest plus schedule-a-new-request.
     *
     * @return the simulated time, so the work is not dead code
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long requestTimeouts() {
        BenchQueue q = queue;
        long[] t = timeouts;
        for (int i = 0; i < BATCH; i++) {
            int slot = cursor;
            if (++cursor == n) {
                cursor = 0;
            }
            now += STEP_NANOS;
            q.cancel(slot);
            q.schedule(slot, now + t[next++ & (TIMEOUTS - 1)]);
            if (now - lastPoll >= BenchQueues.TICK_NANOS) {
                fired += q.pollAll(now);
                lastPoll = now;
            }
        }
        return now;
    }

    /** Fails the run if a request timed out: the workload would no longer be the one described. */
    @TearDown(Level.Trial)
    public void check() {
        if (fired != 0) {
            throw new IllegalStateException("request workload broken: " + fired + " timers fired in " + impl);
        }
    }
}
