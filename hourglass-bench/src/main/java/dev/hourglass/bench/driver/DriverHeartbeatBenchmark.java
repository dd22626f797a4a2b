package dev.hourglass.bench.driver;

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
 * Heartbeats through thread-safe timers: {@code n} connections each hold an idle timeout of 60 s
 * (none fires during a fork). Each operation touches a random connection: it pushes the timeout back
 * by 60 s, except every {@code (k + 1)}-th operation, which closes that connection and opens a new
 * one (cancel, then schedule). So a connection sees on average 1 schedule, {@code k} reschedules and
 * 1 cancel. Hourglass pushes back with {@code Timeout.reschedule}, which keeps the handle; the
 * anchors have no reschedule and cancel plus schedule.
 *
 * <p>Result: caller ns per operation, plus the timer's worker CPU ns per operation ({@code
 * workerCpuNanos}). Hourglass's later reschedule only writes the deadline; its driver moves the
 * entry once, when the old deadline comes (after the fork here), so at most {@code n / 60 s} moves
 * per second are not in the window.
 *
 * <p>Complexity, ordering: not applicable. Thread-safety: one benchmark thread.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class DriverHeartbeatBenchmark {

    private static final long TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(60);

    /** The timer under test: see {@link TimerUnderTest#open}. */
    @Param({
        "HOURGLASS_HIERARCHICAL_WHEEL",
        "HOURGLASS_QUATERNARY_HEAP",
        "HOURGLASS_LOOP_HIERARCHICAL_WHEEL",
        "NETTY_HASHED_WHEEL",
        "KAFKA_SYSTEM_TIMER",
        "JDK_STPE_REMOVE_ON_CANCEL",
        "JDK_STPE_KEEP_CANCELLED"
    })
    public String impl;

    /** Connections, each with one pending timeout. */
    @Param({"10000", "1000000"})
    public int n;

    /** Reschedules per connection between its schedule and its cancel. */
    @Param({"1", "10", "100"})
    public int k;

    private TimerUnderTest timer;
    private Object[] connections;
    private long random = 0x9E3779B97F4A7C15L;
    private int untilReplace;

    /** Makes the benchmark; JMH calls it. */
    public DriverHeartbeatBenchmark() {}

    /**
     * Opens the timer and the connections.
     *
     * @param meter reads the timer's worker CPU
     */
    @Setup(Level.Trial)
    public void open(WorkerMeter meter) {
        if (n < 1 || k < 0) {
            throw new IllegalArgumentException("n must be positive and k not negative: n=" + n + ", k=" + k);
        }
        timer = TimerUnderTest.open(impl);
        meter.watch(timer);
        connections = new Object[n];
        for (int i = 0; i < n; i++) {
            connections[i] = timer.schedule(Task.NOTHING, TIMEOUT_NANOS);
        }
        untilReplace = k + 1;
    }

    /** Stops the timer. */
    @TearDown(Level.Trial)
    public void close() {
        timer.close();
    }

    /**
     * One heartbeat, or every {@code (k + 1)}-th time a connection replaced by a new one.
     *
     * @param cpu counts the operation for the worker CPU figure
     * @return the connection's handle, so that nothing is optimised away
     */
    @Benchmark
    public Object heartbeat(WorkerCpu cpu) {
        cpu.ops++;
        long x = random;
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        random = x;
        int i = (int) (((x >>> 32) * n) >>> 32);
        Object handle = connections[i];
        if (--untilReplace == 0) {
            untilReplace = k + 1;
            timer.cancel(handle);
            handle = timer.schedule(Task.NOTHING, TIMEOUT_NANOS);
        } else {
            handle = timer.reschedule(handle, Task.NOTHING, TIMEOUT_NANOS);
        }
        connections[i] = handle;
        return handle;
    }
}
