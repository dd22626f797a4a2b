package dev.hourglass.bench.driver;

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
 * The cost of pushing back an idle timeout itself, without the memory misses of reaching a random
 * one of many connections: {@code n} connections each hold a 60 s timeout (none fires during a
 * fork), and each invocation pushes back the next {@link #BATCH} of them in turn, wrapping around
 * as a loop does for the connections that were active since it last woke. Memory is read in
 * order, so the caches hold what is touched; {@link DriverHeartbeatBenchmark} reaches random
 * connections instead.
 *
 * <ul>
 *   <li>{@code byDelay}: every push reads the clock: Hourglass's {@code Timeout.reschedule(delay)};
 *       the anchors, which have no reschedule, cancel and schedule a new timeout.
 *   <li>{@code atSharedReading}: the batch shares one clock reading; Hourglass pushes each timeout
 *       to that reading plus 60 s with {@code Timeout.rescheduleAt}, which reads no clock for a
 *       later move. The anchors cannot use a reading taken before: they do as in {@code byDelay}.
 *   <li>{@code cancelAndNew}: every timer, Hourglass's too, cancels the timeout and schedules a new
 *       one, as code written for the anchors does.
 * </ul>
 *
 * <p>Result: caller ns per push, and the timer's own threads' CPU per push ({@code
 * workerCpuNanos}); the batch's one reading is in the caller's time.
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
public class DriverRescheduleBenchmark {

    /** Pushes per invocation: the connections one wake-up of a loop serves, for one reading. */
    static final int BATCH = 64;

    private static final long TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(60);

    /** The timer under test: see {@link TimerUnderTest#open}. */
    @Param({"HOURGLASS_HIERARCHICAL_WHEEL", "NETTY_HASHED_WHEEL", "JDK_STPE_REMOVE_ON_CANCEL"})
    public String impl;

    /** Connections, each with one pending timeout. */
    @Param({"10000", "1000000"})
    public int n;

    private TimerUnderTest timer;
    private Object[] connections;
    private int next;

    /** Makes the benchmark; JMH calls it. */
    public DriverRescheduleBenchmark() {}

    /**
     * Opens the timer and the connections.
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
        connections = new Object[n];
        for (int i = 0; i < n; i++) {
            connections[i] = timer.schedule(Task.NOTHING, TIMEOUT_NANOS);
        }
    }

    /** Stops the timer. */
    @TearDown(Level.Trial)
    public void close() {
        timer.close();
    }

    /**
     * Pushes back the next {@link #BATCH} timeouts, each reading the clock.
     *
     * @param cpu counts the pushes for the worker CPU figure
     * @return the last handle, so that nothing is optimised away
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public Object byDelay(WorkerCpu cpu) {
        cpu.ops += BATCH;
        Object[] all = connections;
        int i = next;
        Object handle = null;
        for (int k = 0; k < BATCH; k++) {
            handle = timer.reschedule(all[i], Task.NOTHING, TIMEOUT_NANOS);
            all[i] = handle;
            i = i + 1 == all.length ? 0 : i + 1;
        }
        next = i;
        return handle;
    }

    /**
     * Pushes back the next {@link #BATCH} timeouts to one reading plus 60 s.
     *
     * @param cpu counts the pushes for the worker CPU figure
     * @return the last handle, so that nothing is optimised away
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public Object atSharedReading(WorkerCpu cpu) {
        cpu.ops += BATCH;
        Object[] all = connections;
        int i = next;
        long deadline = System.nanoTime() + TIMEOUT_NANOS;
        Object handle = null;
        for (int k = 0; k < BATCH; k++) {
            handle = timer.rescheduleAt(all[i], Task.NOTHING, deadline, TIMEOUT_NANOS);
            all[i] = handle;
            i = i + 1 == all.length ? 0 : i + 1;
        }
        next = i;
        return handle;
    }

    /**
     * Cancels the next {@link #BATCH} timeouts and schedules a new one for each.
     *
     * @param cpu counts the pushes for the worker CPU figure
     * @return the last handle, so that nothing is optimised away
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public Object cancelAndNew(WorkerCpu cpu) {
        cpu.ops += BATCH;
        Object[] all = connections;
        int i = next;
        Object handle = null;
        for (int k = 0; k < BATCH; k++) {
            timer.cancel(all[i]);
            handle = timer.schedule(Task.NOTHING, TIMEOUT_NANOS);
            all[i] = handle;
            i = i + 1 == all.length ? 0 : i + 1;
        }
        next = i;
        return handle;
    }
}
