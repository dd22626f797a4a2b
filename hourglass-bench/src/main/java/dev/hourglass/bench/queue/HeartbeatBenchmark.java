package dev.hourglass.bench.queue;

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
 * Heartbeats at the queue level, in steady state: each connection lives through 1 schedule, K
 * reschedules (a ping moves its idle deadline to now + 30 s) and 1 cancel, and about N connections
 * are alive at any time. The score is the mean cost of one queue operation of that mix, polls
 * included.
 *
 * <p>How: {@code N * (K + 2) / (K + 1)} slots are visited round-robin in a shuffled order, one
 * operation per visit and one visit every 10 simulated microseconds; a slot's visits cycle through
 * connect (schedule), K pings (reschedule) and disconnect (cancel), so on average N slots hold a
 * live timer. The queue is polled whenever the simulated clock has moved a tick. Every slot is
 * visited long before its deadline, so no timer fires (checked at tear-down). Agrona's wheel has
 * 2^16 spokes, enough to hold the 30 s horizon in one rotation.
 *
 * <p>Complexity: one structure operation per step. Ordering: round-robin over a fixed shuffle.
 * Thread-safety: one JMH thread per state.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 3,
        jvmArgsAppend = {"-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch"})
public class HeartbeatBenchmark {

    /** Operations per benchmark invocation. */
    static final int BATCH = 1000;

    /** Simulated time between two operations. */
    static final long STEP_NANOS = 10_000;

    /** The idle timeout every ping re-arms. */
    static final long IDLE_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(30);

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

    @Param({"1", "10", "100"})
    int k;

    private BenchQueue queue;
    private int[] order;
    private int[] phase;
    private int slots;
    private int cursor;
    private long now;
    private long lastPoll;
    private long fired;

    /** Creates the state; JMH calls it. */
    public HeartbeatBenchmark() {}

    /** Fills the queue with about N live connections, each last visited one round ago or less. */
    @Setup(Level.Trial)
    public void fill() {
        BenchQueues.requireRun(getClass().getSimpleName(), impl, n);
        slots = (int) ((long) n * (k + 2) / (k + 1));
        order = shuffled(slots, new SplittableRandom(42));
        phase = new int[slots];
        queue = BenchQueues.create(impl, 0, BenchQueues.AGRONA_WIDE_SPOKES, slots);
        now = 0;
        lastPoll = 0;
        cursor = 0;
        fired = 0;
        for (int position = 0; position < slots; position++) {
            int slot = order[position];
            int next = position % (k + 2);
            phase[slot] = next;
            if (next != 0) {
                // visited one round ago; deadlines ascend with the position
                long lastVisit = now - (long) (slots - position) * STEP_NANOS;
                queue.schedule(slot, lastVisit + IDLE_TIMEOUT_NANOS);
            }
        }
    }

    /**
     * Runs {@value #BATCH} heartbeat operations.
     *
     * @return the simulated time, so the work is not dead code
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long heartbeat() {
        BenchQueue q = queue;
        int[] ord = order;
        int[] ph = phase;
        int disconnect = k + 1;
        for (int i = 0; i < BATCH; i++) {
            int slot = ord[cursor];
            if (++cursor == slots) {
                cursor = 0;
            }
            now += STEP_NANOS;
            int p = ph[slot];
            if (p == 0) {
                q.schedule(slot, now + IDLE_TIMEOUT_NANOS);
            } else if (p < disconnect) {
                q.reschedule(slot, now + IDLE_TIMEOUT_NANOS);
            } else {
                q.cancel(slot);
            }
            ph[slot] = p == disconnect ? 0 : p + 1;
            if (now - lastPoll >= BenchQueues.TICK_NANOS) {
                fired += q.pollAll(now);
                lastPoll = now;
            }
        }
        return now;
    }

    /** Fails the run if a timer fired: the workload would no longer be the one described. */
    @TearDown(Level.Trial)
    public void check() {
        if (fired != 0) {
            throw new IllegalStateException("heartbeat workload broken: " + fired + " timers fired in " + impl);
        }
    }

    static int[] shuffled(int size, SplittableRandom random) {
        int[] values = new int[size];
        for (int i = 0; i < size; i++) {
            values[i] = i;
        }
        for (int i = size - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int swap = values[i];
            values[i] = values[j];
            values[j] = swap;
        }
        return values;
    }
}
