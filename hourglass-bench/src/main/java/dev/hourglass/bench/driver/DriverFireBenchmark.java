package dev.hourglass.bench.driver;

import dev.hourglass.bench.MachineTooBusyException;
import java.util.concurrent.CountDownLatch;
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
 * Fire-heavy work through thread-safe timers. Each iteration schedules {@code n} timers before it
 * starts (not measured) and begins at their first deadline, which lies far enough ahead that the
 * scheduling is over and every timer has absorbed it: 200 ms plus 10 µs per timer (10.2 s for a
 * million) for the first iteration, then three times the longest scheduling seen so far plus 200 ms
 * plus 1 µs per timer:
 *
 * <ul>
 *   <li>{@code dueAtOnce}: all {@code n} share one deadline. Result: ms from the deadline until the
 *       last one ran (for a wheel this includes up to one tick of waiting for the boundary), and
 *       {@code nsPerFired}, the same per timer;
 *   <li>{@code spreadOverOneSecond}: deadlines evenly spread over one second. Result: the lateness
 *       percentiles of the {@code n} timers ({@link LatenessCounters}).
 * </ul>
 *
 * <p>Both report the worker CPU ns per fired timer ({@code workerCpuNanos}). The tasks count or
 * record on the one thread each timer runs its tasks on.
 *
 * <p>Complexity, ordering: not applicable. Thread-safety: one benchmark thread.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 1)
@Measurement(iterations = 3)
public class DriverFireBenchmark {

    /**
     * How long before the first deadline the first iteration starts scheduling, per timer (10 s for
     * a million), on top of {@link #BASE_LEAD_NANOS}.
     */
    static final long FIRST_LEAD_NANOS_PER_TIMER = 10_000;

    /** Added to three times the longest scheduling to give the lead of later iterations, per timer. */
    static final long MARGIN_NANOS_PER_TIMER = 1_000;

    /** The least lead, enough to tell a run that started too late. */
    static final long BASE_LEAD_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    /** How long a run may take before the benchmark gives up. */
    private static final long PATIENCE_SECONDS = 60;

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

    /** Timers fired per iteration. */
    @Param({"1000000"})
    public int n;

    private TimerUnderTest timer;
    private long longestScheduling = -1;

    /** Makes the benchmark; JMH calls it. */
    public DriverFireBenchmark() {}

    /** When the scheduling of an iteration that starts now should put the first deadline. */
    long firstDeadline() {
        long lead = BASE_LEAD_NANOS
                + (longestScheduling < 0
                        ? n * FIRST_LEAD_NANOS_PER_TIMER
                        : 3 * longestScheduling + n * MARGIN_NANOS_PER_TIMER);
        return System.nanoTime() + lead;
    }

    /** Schedules {@code task} at {@code deadline}; a deadline already passed is due now. */
    void scheduleAt(Task task, long deadline) {
        timer.schedule(task, Math.max(0, deadline - System.nanoTime()));
    }

    /**
     * Remembers how long scheduling took, for the next lead, then waits until {@code deadline},
     * parking, then spinning the last 100 µs, and restarts the worker CPU meter.
     *
     * @throws MachineTooBusyException if the deadline is less than 100 ms away: the timers may have
     *     started to fire before the iteration began
     */
    void startAt(long deadline, long schedulingStarted, WorkerMeter meter) {
        long took = System.nanoTime() - schedulingStarted;
        longestScheduling = Math.max(longestScheduling, took);
        long left = deadline - System.nanoTime();
        if (left < TimeUnit.MILLISECONDS.toNanos(100)) {
            throw new MachineTooBusyException("scheduling " + n + " timers", took / 1_000_000, left / 1_000_000, 100);
        }
        while ((left = deadline - System.nanoTime()) > 100_000) {
            LockSupport.parkNanos(left - 100_000);
        }
        while (deadline - System.nanoTime() > 0) {
            Thread.onSpinWait();
        }
        meter.mark();
    }

    /**
     * Opens the timer.
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
    }

    /** Stops the timer. */
    @TearDown(Level.Trial)
    public void close() {
        timer.close();
    }

    /** Counts the runs of timers that share it; runs on one thread at a time. */
    static final class Countdown extends Task {
        private final CountDownLatch done = new CountDownLatch(1);
        private int remaining;
        private long doneAt;

        Countdown(int count) {
            this.remaining = count;
        }

        @Override
        public void run() {
            if (--remaining == 0) {
                doneAt = System.nanoTime();
                done.countDown();
            }
        }

        long awaitDoneAt() throws InterruptedException {
            if (!done.await(PATIENCE_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException("timers still pending after " + PATIENCE_SECONDS + " s");
            }
            return doneAt;
        }
    }

    /**
     * An iteration of {@code dueAtOnce}: {@code n} timers with one deadline.
     *
     * <p>Complexity: O(n) to prepare. Ordering: not applicable. Thread-safety: one thread.
     */
    @State(Scope.Benchmark)
    public static class AtOnce {
        Countdown countdown;
        long deadline;

        /** Makes the state; JMH calls it. */
        public AtOnce() {}

        /**
         * Schedules the timers and waits for their deadline.
         *
         * @param benchmark the timer
         * @param meter restarted at the deadline
         */
        @Setup(Level.Iteration)
        public void arm(DriverFireBenchmark benchmark, WorkerMeter meter) {
            countdown = new Countdown(benchmark.n);
            long started = System.nanoTime();
            deadline = benchmark.firstDeadline();
            for (int i = 0; i < benchmark.n; i++) {
                benchmark.scheduleAt(countdown, deadline);
            }
            benchmark.startAt(deadline, started, meter);
        }
    }

    /**
     * {@code n} timers due at the same time: waits from their deadline until all have run.
     *
     * @param state the armed timers
     * @param cpu counts the fired timers for the worker CPU figure
     * @param out receives ns per fired timer
     * @throws InterruptedException if interrupted while waiting
     */
    @Benchmark
    public void dueAtOnce(AtOnce state, WorkerCpu cpu, FireCounters out) throws InterruptedException {
        long doneAt = state.countdown.awaitDoneAt();
        cpu.ops += n;
        out.set((double) (doneAt - state.deadline) / n);
    }

    /**
     * An iteration of {@code spreadOverOneSecond}: {@code n} timers due evenly over one second.
     *
     * <p>Complexity: O(n) to prepare. Ordering: not applicable. Thread-safety: one thread.
     */
    @State(Scope.Benchmark)
    public static class Spread {
        LatenessRecorder recorder;

        /** Makes the state; JMH calls it. */
        public Spread() {}

        /**
         * Schedules the timers and waits for the first deadline.
         *
         * @param benchmark the timer
         * @param meter restarted at the first deadline
         */
        @Setup(Level.Iteration)
        public void arm(DriverFireBenchmark benchmark, WorkerMeter meter) {
            recorder = new LatenessRecorder();
            long started = System.nanoTime();
            long first = benchmark.firstDeadline();
            double step = 1e9 / benchmark.n;
            for (int i = 0; i < benchmark.n; i++) {
                long deadline = first + (long) (i * step);
                benchmark.scheduleAt(new LatenessRecorder.Probe(recorder, deadline), deadline);
            }
            benchmark.startAt(first, started, meter);
        }
    }

    /**
     * {@code n} timers due over one second: waits until all have run and reports their lateness.
     *
     * @param state the armed timers
     * @param cpu counts the fired timers for the worker CPU figure
     * @param out receives the lateness percentiles
     */
    @Benchmark
    public void spreadOverOneSecond(Spread state, WorkerCpu cpu, LatenessCounters out) {
        state.recorder.await(n, PATIENCE_SECONDS);
        cpu.ops += n;
        state.recorder.report(out);
    }
}
