package dev.hourglass.bench.driver;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
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
 * Lateness and idle CPU of thread-safe timers while {@code n} far timers (one hour away) are pending.
 *
 * <ul>
 *   <li>{@code nearTimers}: for {@code streamMillis} ms (3 s) the benchmark thread schedules a near
 *       timer every {@value #INTERVAL_MICROS} µs with a random delay of 0 to {@value #MAX_DELAY_MILLIS}
 *       ms (seeded), then waits until all have run. Each records fire time minus its deadline
 *       ({@link System#nanoTime()}, deadline read just before scheduling) into an HdrHistogram.
 *       Result: {@link LatenessCounters} (p50, p99, p999, max, early runs) and the worker CPU per
 *       near timer ({@code workerCpuNanos});
 *   <li>{@code idle}: the benchmark thread sleeps {@code idleMillis} ms (2 s). Result: the worker CPU per
 *       idle second ({@code workerCpuNanos}, ns of CPU per s) and {@code workerCpuLoad}.
 * </ul>
 *
 * <p>Complexity, ordering: not applicable. Thread-safety: one benchmark thread.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 1)
@Measurement(iterations = 2)
public class DriverLatenessBenchmark {

    static final int INTERVAL_MICROS = 100;
    static final int MAX_DELAY_MILLIS = 50;

    private static final long FAR_NANOS = TimeUnit.HOURS.toNanos(1);

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

    /** Far timers pending throughout. */
    @Param({"0", "1000000"})
    public int n;

    /** How long {@code nearTimers} schedules near timers, in milliseconds. */
    @Param("3000")
    public int streamMillis;

    /** How long {@code idle} leaves the timer idle, in milliseconds. */
    @Param("2000")
    public int idleMillis;

    private TimerUnderTest timer;
    private final SplittableRandom random = new SplittableRandom(42);

    /** Makes the benchmark; JMH calls it. */
    public DriverLatenessBenchmark() {}

    /**
     * Opens the timer and schedules the far timers.
     *
     * @param meter reads the timer's worker CPU
     */
    @Setup(Level.Trial)
    public void open(WorkerMeter meter) {
        if (n < 0) {
            throw new IllegalArgumentException("n must not be negative: " + n);
        }
        timer = TimerUnderTest.open(impl);
        meter.watch(timer);
        for (int i = 0; i < n; i++) {
            timer.schedule(Task.NOTHING, FAR_NANOS);
        }
    }

    /** Stops the timer. */
    @TearDown(Level.Trial)
    public void close() {
        timer.close();
    }

    /**
     * Streams near timers and reports their lateness.
     *
     * @param cpu counts the near timers for the worker CPU figure
     * @param out receives the lateness percentiles
     */
    @Benchmark
    public void nearTimers(WorkerCpu cpu, LatenessCounters out) {
        LatenessRecorder recorder = new LatenessRecorder();
        long interval = TimeUnit.MICROSECONDS.toNanos(INTERVAL_MICROS);
        long maxDelay = TimeUnit.MILLISECONDS.toNanos(MAX_DELAY_MILLIS);
        long start = System.nanoTime();
        long end = start + TimeUnit.MILLISECONDS.toNanos(streamMillis);
        long next = start;
        long scheduled = 0;
        for (long now = start; now - end < 0; now = System.nanoTime()) {
            if (next - now > 0) {
                LockSupport.parkNanos(next - now);
                continue;
            }
            long delay = random.nextLong(maxDelay);
            long deadline = System.nanoTime() + delay;
            timer.schedule(new LatenessRecorder.Probe(recorder, deadline), delay);
            scheduled++;
            // Behind by more than a millisecond (a busy machine): go on from now instead of bursting.
            next = now - next > 1_000_000 ? now + interval : next + interval;
        }
        recorder.await(scheduled, 30);
        cpu.ops += scheduled;
        recorder.report(out);
    }

    /**
     * Leaves the timer alone and reports the CPU its threads used meanwhile.
     *
     * @param cpu counts idle seconds, so that the worker CPU figure is per second
     * @throws InterruptedException if interrupted while sleeping
     */
    @Benchmark
    public void idle(WorkerCpu cpu) throws InterruptedException {
        Thread.sleep(idleMillis);
        cpu.ops += Math.max(1, idleMillis / 1000); // per idle second
    }
}
