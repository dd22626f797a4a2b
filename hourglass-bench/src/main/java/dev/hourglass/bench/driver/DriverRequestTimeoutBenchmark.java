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
 * Request timeouts through thread-safe timers: {@code n} requests are pending, each with a 60 s
 * timeout (none fires during a fork). Each operation is one pair: a new request schedules its
 * timeout and the oldest pending request completes, cancelling its own (requests complete in the
 * order they were sent, as with a similar latency each). So {@code n} stay pending.
 *
 * <p>Result: caller ns per pair, plus the timer's worker CPU ns per pair ({@code workerCpuNanos}).
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
public class DriverRequestTimeoutBenchmark {

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

    /** Pending requests. */
    @Param({"10000", "1000000"})
    public int n;

    private TimerUnderTest timer;
    private Object[] pending;
    private int oldest;

    /** Makes the benchmark; JMH calls it. */
    public DriverRequestTimeoutBenchmark() {}

    /**
     * Opens the timer and the pending requests.
     *
     * @param meter reads the timer's worker CPU
     */
    @Setup(Level.Trial)
    public void open(WorkerMeter meter) {
        if (n < 1) {
            throw new IllegalArgumentException("n must be positive: " + n);
        }
        timer = TimerUnderTest.open(impl);
        meter.watch(timer);
        pending = new Object[n];
        for (int i = 0; i < n; i++) {
            pending[i] = timer.schedule(Task.NOTHING, TIMEOUT_NANOS);
        }
    }

    /** Stops the timer. */
    @TearDown(Level.Trial)
    public void close() {
        timer.close();
    }

    /**
     * Schedules a new request's timeout and cancels the oldest one's.
     *
     * @param cpu counts the pair for the worker CPU figure
     * @return the new handle, so that nothing is optimised away
     */
    @Benchmark
    public Object scheduleAndCancel(WorkerCpu cpu) {
        cpu.ops++;
        int i = oldest;
        Object handle = timer.schedule(Task.NOTHING, TIMEOUT_NANOS);
        timer.cancel(pending[i]);
        pending[i] = handle;
        oldest = i + 1 == n ? 0 : i + 1;
        return handle;
    }
}
