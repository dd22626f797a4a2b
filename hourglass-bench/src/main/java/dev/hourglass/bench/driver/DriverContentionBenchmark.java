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
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Several producer threads scheduling and cancelling on one thread-safe timer at once. {@code n}
 * timeouts of 60 s stay pending in the background; each benchmark thread keeps its own
 * {@value #PER_THREAD} requests pending and each operation schedules one and cancels that thread's
 * oldest, as in {@link DriverRequestTimeoutBenchmark}.
 *
 * <p>Threads: JMH's own thread count sets the producers: run with {@code -t 1}, {@code -t 2} or
 * {@code -t 4} (the Runner's {@code OptionsBuilder.threads(t)}) and pass the same number as the
 * parameter {@code threads}, which only labels the result and is checked against it (a parameter
 * cannot set JMH's thread count). On a 2-core machine 2 producers and the timer's worker already
 * share the cores.
 *
 * <p>Result: caller ns per pair as each thread sees it (JMH averages the threads), plus the worker
 * CPU ns per pair of all threads together ({@code workerCpuNanos}).
 *
 * <p>Complexity, ordering: not applicable. Thread-safety: the timer is shared, each producer's
 * state is its own.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class DriverContentionBenchmark {

    /** Requests each producer keeps pending. */
    static final int PER_THREAD = 1024;

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

    /** Background timeouts pending besides the producers' own. */
    @Param({"10000"})
    public int n;

    /** The producer threads: must equal JMH's thread count ({@code -t}). */
    @Param({"1"})
    public int threads;

    private TimerUnderTest timer;

    /** Makes the benchmark; JMH calls it. */
    public DriverContentionBenchmark() {}

    /**
     * Opens the timer and the background timeouts.
     *
     * @param meter reads the timer's worker CPU
     * @param params the run's parameters, whose thread count must match {@link #threads}
     */
    @Setup(Level.Trial)
    public void open(WorkerMeter meter, BenchmarkParams params) {
        if (params.getThreads() != threads) {
            throw new IllegalArgumentException("threads=" + threads + " but JMH runs " + params.getThreads()
                    + " threads: run with -t " + threads + " (OptionsBuilder.threads(" + threads + "))");
        }
        if (n < 0) {
            throw new IllegalArgumentException("n must not be negative: " + n);
        }
        timer = TimerUnderTest.open(impl);
        meter.watch(timer);
        for (int i = 0; i < n; i++) {
            timer.schedule(Task.NOTHING, TIMEOUT_NANOS);
        }
    }

    /** Stops the timer. */
    @TearDown(Level.Trial)
    public void close() {
        timer.close();
    }

    /**
     * One producer's pending requests.
     *
     * <p>Complexity: O(1) per operation. Ordering: oldest first. Thread-safety: one thread.
     */
    @State(Scope.Thread)
    public static class Producer {
        final Object[] pending = new Object[PER_THREAD];
        int oldest;

        /** Makes the producer; JMH calls it. */
        public Producer() {}

        /**
         * Schedules this producer's pending requests.
         *
         * @param benchmark the shared timer
         */
        @Setup(Level.Trial)
        public void fill(DriverContentionBenchmark benchmark) {
            for (int i = 0; i < PER_THREAD; i++) {
                pending[i] = benchmark.timer.schedule(Task.NOTHING, TIMEOUT_NANOS);
            }
        }
    }

    /**
     * Schedules a new request's timeout and cancels this producer's oldest one.
     *
     * @param producer this thread's pending requests
     * @param cpu counts the pair for the worker CPU figure
     * @return the new handle, so that nothing is optimised away
     */
    @Benchmark
    public Object scheduleAndCancel(Producer producer, WorkerCpu cpu) {
        cpu.ops++;
        int i = producer.oldest;
        Object handle = timer.schedule(Task.NOTHING, TIMEOUT_NANOS);
        timer.cancel(producer.pending[i]);
        producer.pending[i] = handle;
        producer.oldest = (i + 1) & (PER_THREAD - 1);
        return handle;
    }
}
