package dev.hourglass.bench.driver;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The floor under any timer that sleeps between its deadlines: what one timed park and the wake
 * after it cost the parked thread, with no timer around it. Each shot parks {@code wakes} times for
 * {@code parkMicros} each ({@link LockSupport#parkNanos}, as a timer thread parks until its next
 * deadline). Results: the wall time of the shot (ms, primary) and {@code cpuNanosPerWake}, the
 * thread's CPU time (user and kernel: the system calls and the switches out and back in) per park
 * and wake.
 *
 * <p>A timer that promises a notice within a tick of its deadline must be awake in every tick that
 * holds a deadline; when its thread has nothing else to do and every tick holds one, its CPU per
 * notice is at least this figure times the ticks per second over the notices per second (see
 * docs/expiring-map.md).
 *
 * <p>Complexity, ordering: not applicable. Thread-safety: one benchmark thread.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
        value = 3,
        jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 2)
@Measurement(iterations = 5)
public class ThreadWakeBenchmark {

    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    /** How long each park lasts: the expiring map's default tick unless told otherwise. */
    @Param("10000")
    public long parkMicros;

    /** Parks per shot. */
    @Param("100")
    public int wakes;

    private long parkNanos;

    /** Makes the benchmark; JMH calls it. */
    public ThreadWakeBenchmark() {}

    /** Checks the parameters. */
    @Setup
    public void check() {
        if (parkMicros < 1) {
            throw new IllegalArgumentException("parkMicros must be positive: " + parkMicros);
        }
        if (wakes < 1) {
            throw new IllegalArgumentException("wakes must be positive: " + wakes);
        }
        if (!CPU.isCurrentThreadCpuTimeSupported()) {
            throw new IllegalStateException("this JVM cannot read a thread's CPU time");
        }
        parkNanos = TimeUnit.MICROSECONDS.toNanos(parkMicros);
    }

    /**
     * Parks {@code wakes} times.
     *
     * @param out receives the CPU per park and wake
     */
    @Benchmark
    public void parkAndWake(WakeCounters out) {
        long cpuAtStart = CPU.getCurrentThreadCpuTime();
        for (int i = 0; i < wakes; i++) {
            LockSupport.parkNanos(parkNanos);
        }
        out.record((double) (CPU.getCurrentThreadCpuTime() - cpuAtStart) / wakes);
    }
}
