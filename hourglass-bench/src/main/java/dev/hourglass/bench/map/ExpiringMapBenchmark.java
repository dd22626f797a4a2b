package dev.hourglass.bench.map;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Put of a live key and get, at one and two threads, on a map holding {@code size} live entries
 * (TTL one hour), with random keys: each thread walks its own pseudo-random sequence over the key
 * array. The primary result is ns per operation of one thread; {@link MapCpu} adds the caller's CPU
 * and the map's own threads' CPU per operation.
 *
 * <p>Complexity, ordering: not applicable. Thread-safety: the map is shared by the benchmark threads.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
        value = 3,
        jvmArgsAppend = {"-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class ExpiringMapBenchmark {

    static final long TTL_NANOS = TimeUnit.HOURS.toNanos(1);
    private static final Object VALUE = new Object();

    /** The map under test: see {@link MapUnderTest#open}. */
    @Param({"HOURGLASS", "CAFFEINE"})
    public String impl;

    /** Live entries in the map, and keys the operations pick from. */
    @Param({"10000", "1000000"})
    public int size;

    private MapUnderTest map;
    private Integer[] keys;

    /** Makes the benchmark; JMH calls it. */
    public ExpiringMapBenchmark() {}

    /**
     * Opens the map and fills it.
     *
     * @param meter reads the map's threads' CPU
     */
    @Setup(Level.Trial)
    public void open(MapMeter meter) {
        if (size < 1) {
            throw new IllegalArgumentException("size must be positive: " + size);
        }
        map = MapUnderTest.open(impl, key -> {});
        meter.watch(map);
        keys = new Integer[size];
        for (int i = 0; i < size; i++) {
            keys[i] = i;
            map.put(keys[i], VALUE, TTL_NANOS);
        }
        map.settle();
    }

    /** Closes the map. */
    @TearDown(Level.Trial)
    public void close() {
        map.close();
    }

    /**
     * One thread's walk over the keys: an xorshift sequence, different per thread.
     *
     * <p>Complexity: O(1). Ordering: n/a. Thread-safety: one per benchmark thread.
     */
    @State(Scope.Thread)
    public static class Keys {
        private static final AtomicInteger SEEDS = new AtomicInteger(0x2545F491);
        private int state = SEEDS.getAndAdd(0x61C88647) | 1;

        /** Makes the walk; JMH calls it. */
        public Keys() {}

        int next(int bound) {
            int x = state;
            x ^= x << 13;
            x ^= x >>> 17;
            x ^= x << 5;
            state = x;
            return (int) ((x & 0xFFFF_FFFFL) % bound);
        }
    }

    private Integer key(Keys walk) {
        return keys[walk.next(size)];
    }

    /**
     * Puts a live key again with a new TTL, one thread.
     *
     * @param walk this thread's keys
     * @param cpu counts the operation
     * @return the previous value
     */
    @Benchmark
    @Threads(1)
    public Object putLive(Keys walk, MapCpu cpu) {
        cpu.ops++;
        return map.put(key(walk), VALUE, TTL_NANOS);
    }

    /**
     * Puts a live key again with a new TTL, two threads.
     *
     * @param walk this thread's keys
     * @param cpu counts the operation
     * @return the previous value
     */
    @Benchmark
    @Threads(2)
    public Object putLiveTwoThreads(Keys walk, MapCpu cpu) {
        cpu.ops++;
        return map.put(key(walk), VALUE, TTL_NANOS);
    }

    /**
     * Gets a live key, one thread.
     *
     * @param walk this thread's keys
     * @param cpu counts the operation
     * @return the value
     */
    @Benchmark
    @Threads(1)
    public Object get(Keys walk, MapCpu cpu) {
        cpu.ops++;
        return map.get(key(walk));
    }

    /**
     * Gets a live key, two threads.
     *
     * @param walk this thread's keys
     * @param cpu counts the operation
     * @return the value
     */
    @Benchmark
    @Threads(2)
    public Object getTwoThreads(Keys walk, MapCpu cpu) {
        cpu.ops++;
        return map.get(key(walk));
    }
}
