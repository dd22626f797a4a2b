package dev.hourglass.bench;

import dev.hourglass.patterns.IdleDetector;
import dev.hourglass.queue.TimerStructure;
import dev.hourglass.time.NanoClock;
import dev.hourglass.timer.Timer;
import dev.hourglass.timer.Timers;
import io.netty.util.HashedWheelTimer;
import io.netty.util.Timeout;
import io.netty.util.TimerTask;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;
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
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * Idle detection for a million keys touched at full speed, the heartbeat workload: every operation
 * touches one existing key (keys visited in a fixed random order), with a timeout long enough
 * (an hour by default) that nothing fires while measuring.
 *
 * <ul>
 *   <li>{@code hourglass}: {@link IdleDetector} on a timer thread (hierarchical wheel, 1 ms tick):
 *       a touch records the time; the key's one timeout checks it when it comes due.
 *   <li>{@code hourglassReschedule}: the same pattern written the obvious way on the Hourglass
 *       {@link Timer}: a map of one {@code Timeout} per key and {@code Timeout.reschedule} per touch.
 *   <li>{@code netty}: the same pattern on Netty's {@link HashedWheelTimer} (1 ms tick, 512 slots):
 *       per touch, cancel the key's timeout and make a new one.
 * </ul>
 *
 * <p>Printed besides ns per touch (lines starting {@code [idle]}): the CPU time per touch of the
 * benchmark thread and of the driver's background thread (Netty's worker files every new timeout
 * and every cancellation away, on another core, which the caller's ns per touch does not show);
 * and the retained heap per watched key (used heap after a full GC, before and after adding the
 * keys; the key objects themselves are made beforehand and not counted).
 *
 * <p>Complexity: O(1) per touch for all three. Ordering: not applicable. Thread-safety: one
 * benchmark thread (the operation counter is a plain field).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class IdleDetectorBenchmark {

    /** How many keys are watched. */
    @Param("1000000")
    public int keys;

    /** Which implementation: {@code hourglass}, {@code hourglassReschedule} or {@code netty}. */
    @Param({"hourglass", "hourglassReschedule", "netty"})
    public String impl;

    /**
     * The idle timeout in seconds: long enough that no key goes idle and no timeout fires during a
     * run, however slow the machine, so that every operation is a touch of a watched key.
     */
    @Param("3600")
    public int timeoutSeconds;

    /** The visiting order: a power of two long, so the cursor wraps with a mask. */
    private static final int ORDER_MASK = (1 << 22) - 1;

    private Integer[] keyObjects;
    private Integer[] order;
    private int cursor;
    private IdleTouch target;
    private volatile Thread worker;

    /** Touches one key; the three implementations behind one call. */
    private interface IdleTouch extends AutoCloseable {
        void touch(Integer key);

        @Override
        void close();
    }

    /**
     * CPU time per touch over each iteration, of the benchmark thread (which, unlike ns/op, does not
     * count the time other processes took the core) and of the driver's background thread.
     */
    @State(Scope.Thread)
    public static class IdleCpu {
        long touches;
        private long callerStart;
        private long workerStart;

        /**
         * Notes both threads' CPU time as the iteration begins.
         *
         * @param bench the benchmark, whose driver thread is measured
         */
        @Setup(Level.Iteration)
        public void startIteration(IdleDetectorBenchmark bench) {
            touches = 0;
            callerStart = threads().getCurrentThreadCpuTime();
            workerStart = threads().getThreadCpuTime(bench.worker.getId());
        }

        /**
         * Charges both threads' CPU time over the iteration to its touches and prints it.
         *
         * @param bench the benchmark, which sums the measurement iterations
         * @param iteration whether this was a warm-up or a measurement iteration
         */
        @TearDown(Level.Iteration)
        public void endIteration(IdleDetectorBenchmark bench, IterationParams iteration) {
            double caller = (double) (threads().getCurrentThreadCpuTime() - callerStart) / touches;
            double worker = (double) (threads().getThreadCpuTime(bench.worker.getId()) - workerStart) / touches;
            System.out.printf(" [CPU per touch: caller %.1f ns, worker %.1f ns]", caller, worker);
            if (iteration.getType() == IterationType.MEASUREMENT) {
                bench.measuredIterations++;
                bench.callerCpuSum += caller;
                bench.workerCpuSum += worker;
            }
        }
    }

    private int measuredIterations;
    private double callerCpuSum;
    private double workerCpuSum;

    /**
     * Makes the keys, measures the heap they take once watched, and starts the driver.
     *
     * @throws InterruptedException if interrupted while waiting for a full GC
     */
    @Setup(Level.Trial)
    public void setUp() throws InterruptedException {
        keyObjects = new Integer[keys];
        for (int i = 0; i < keys; i++) {
            keyObjects[i] = i;
        }
        order = new Integer[ORDER_MASK + 1];
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < order.length; i++) {
            order[i] = keyObjects[random.nextInt(keys)];
        }
        long before = usedHeapAfterGc();
        target = open(impl);
        for (Integer key : keyObjects) {
            target.touch(key);
        }
        long after = usedHeapAfterGc();
        System.out.printf(
                "%n[idle] impl=%s keys=%d retained heap: %.1f bytes per key%n",
                impl, keys, (double) (after - before) / keys);
    }

    private IdleTouch open(String name) {
        Duration timeout = Duration.ofSeconds(timeoutSeconds);
        ThreadFactory factory = task -> {
            Thread thread = new Thread(task, "idle-bench-" + name);
            thread.setDaemon(true);
            worker = thread;
            return thread;
        };
        switch (name) {
            case "hourglass":
                return new IdleHourglass(factory, timeout);
            case "hourglassReschedule":
                return new IdleHourglassReschedule(factory, timeout);
            case "netty":
                return new IdleNetty(factory, timeout);
            default:
                throw new IllegalArgumentException("impl must be hourglass, hourglassReschedule or netty: " + name);
        }
    }

    /** Prints the mean CPU time per touch over the measurement iterations and stops the driver. */
    @TearDown(Level.Trial)
    public void tearDown() {
        System.out.printf(
                "%n[idle] impl=%s keys=%d mean CPU per touch over %d iterations: caller %.1f ns, worker %.1f ns%n",
                impl, keys, measuredIterations, callerCpuSum / measuredIterations, workerCpuSum / measuredIterations);
        target.close();
    }

    /**
     * Touches the next key of the visiting order.
     *
     * @param cpu the per-iteration CPU accounting
     */
    @Benchmark
    public void touch(IdleCpu cpu) {
        target.touch(order[cursor++ & ORDER_MASK]);
        cpu.touches++;
    }

    private static ThreadMXBean threads() {
        ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        if (!bean.isThreadCpuTimeEnabled()) {
            bean.setThreadCpuTimeEnabled(true);
        }
        return bean;
    }

    private static long usedHeapAfterGc() throws InterruptedException {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long used = Long.MAX_VALUE;
        // Several rounds: the last one finds nothing more to free.
        for (int i = 0; i < 4; i++) {
            System.gc();
            Thread.sleep(100);
            used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
        }
        return used;
    }

    /** The detector under test. */
    private static final class IdleHourglass implements IdleTouch {
        private final Timer timer;
        private final IdleDetector<Integer> detector;

        IdleHourglass(ThreadFactory factory, Duration timeout) {
            timer = Timers.builder()
                    .structure(TimerStructure.HIERARCHICAL_WHEEL)
                    .tick(Duration.ofMillis(1))
                    .threadFactory(factory)
                    .startTimerThread();
            detector = IdleDetector.create(timer, NanoClock.system(), timeout, key -> {});
        }

        @Override
        public void touch(Integer key) {
            detector.touch(key);
        }

        @Override
        public void close() {
            detector.close();
            timer.close();
        }
    }

    /** One Hourglass timeout per key, rescheduled on every touch. */
    private static final class IdleHourglassReschedule implements IdleTouch {
        private final Timer timer;
        private final ConcurrentHashMap<Integer, dev.hourglass.timer.Timeout> timeouts = new ConcurrentHashMap<>();
        private final Duration timeout;

        IdleHourglassReschedule(ThreadFactory factory, Duration timeout) {
            this.timeout = timeout;
            timer = Timers.builder()
                    .structure(TimerStructure.HIERARCHICAL_WHEEL)
                    .tick(Duration.ofMillis(1))
                    .threadFactory(factory)
                    .startTimerThread();
        }

        @Override
        public void touch(Integer key) {
            dev.hourglass.timer.Timeout current = timeouts.get(key);
            if (current == null || !current.reschedule(timeout)) {
                timeouts.put(key, timer.schedule(() -> timeouts.remove(key), timeout));
            }
        }

        @Override
        public void close() {
            timer.close();
        }
    }

    /** Netty's HashedWheelTimer: per touch, cancel the key's timeout and make a new one. */
    private static final class IdleNetty implements IdleTouch {
        private final HashedWheelTimer timer;
        private final ConcurrentHashMap<Integer, IdleNettyWatch> watches = new ConcurrentHashMap<>();
        private final long timeoutNanos;

        IdleNetty(ThreadFactory factory, Duration timeout) {
            this.timeoutNanos = timeout.toNanos();
            // A 1 ms tick like Hourglass's wheel; Netty's default of 100 ms moves at most 100,000
            // new timeouts per tick into the wheel, fewer than this benchmark makes.
            timer = new HashedWheelTimer(factory, 1, TimeUnit.MILLISECONDS, 512);
            timer.start();
        }

        @Override
        public void touch(Integer key) {
            IdleNettyWatch watch = watches.get(key);
            if (watch == null) {
                watch = new IdleNettyWatch(key, watches);
                watches.put(key, watch);
            }
            watch.restart(timer, timeoutNanos);
        }

        @Override
        public void close() {
            timer.stop();
        }
    }

    /** A key's watch on Netty: the task that reports it and its current timeout. */
    private static final class IdleNettyWatch implements TimerTask {
        private static final VarHandle TIMEOUT_HANDLE;

        static {
            try {
                TIMEOUT_HANDLE = MethodHandles.lookup().findVarHandle(IdleNettyWatch.class, "timeout", Timeout.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private final Integer key;
        private final ConcurrentHashMap<Integer, IdleNettyWatch> watches;

        @SuppressWarnings("unused") // through TIMEOUT_HANDLE
        private volatile Timeout timeout;

        IdleNettyWatch(Integer key, ConcurrentHashMap<Integer, IdleNettyWatch> watches) {
            this.key = key;
            this.watches = watches;
        }

        void restart(HashedWheelTimer timer, long timeoutNanos) {
            Timeout fresh = timer.newTimeout(this, timeoutNanos, TimeUnit.NANOSECONDS);
            Timeout old = (Timeout) TIMEOUT_HANDLE.getAndSet(this, fresh);
            if (old != null) {
                old.cancel();
            }
        }

        @Override
        public void run(Timeout expired) {
            watches.remove(key, this);
        }
    }
}
