package dev.hourglass.bench.queue;

import dev.hourglass.queue.TimerStructure;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * Makes the queue a benchmark's {@code impl} parameter names, and says which combinations are not
 * run because they would take hours (an O(n) step repeated n times at n = 1e6).
 *
 * <p>Every wheel, Hourglass's and Agrona's, ticks every {@link #TICK_NANOS} (2^20 ns, about 1.05
 * ms: Agrona needs a power of two, and Hourglass's wheels get the same so they do the same work).
 *
 * <p>Complexity: O(1) plus the structure's allocation. Ordering: n/a. Thread-safety: stateless.
 */
public final class BenchQueues {

    /** The single-threaded anchor's {@code impl} name: Agrona's {@code DeadlineTimerWheel}. */
    public static final String AGRONA = "AGRONA";

    /** The tick of every wheel: 2^20 ns. */
    public static final long TICK_NANOS = 1L << 20;

    /**
     * Agrona's spokes where deadlines spread over tens of seconds: 2^16 spokes of 2^20 ns cover
     * 68.7 s, the range of Hourglass's simple wheel, so no spoke mixes rotations.
     */
    static final int AGRONA_WIDE_SPOKES = 1 << 16;

    /**
     * Agrona's spokes when all timers share one tick: every spoke gets the capacity of the fullest,
     * so a wide wheel would need spokes * n longs.
     */
    static final int AGRONA_NARROW_SPOKES = 16;

    /** Agrona's spokes for one second of deadlines: 1024 spokes cover it in one rotation. */
    static final int AGRONA_SECOND_SPOKES = 1024;

    private BenchQueues() {}

    /**
     * Returns every {@code impl} name in the order the benchmarks sweep them: the {@link
     * TimerStructure} names, then {@link #AGRONA}.
     *
     * @return the names, unmodifiable
     */
    public static List<String> implNames() {
        List<String> names = new ArrayList<>();
        for (TimerStructure structure : TimerStructure.values()) {
            names.add(structure.name());
        }
        names.add(AGRONA);
        return Collections.unmodifiableList(names);
    }

    /**
     * Tells why a combination is not run, if it is not.
     *
     * @param benchmark the benchmark's simple class name
     * @param impl the {@code impl} parameter
     * @param n the number of timers
     * @return the reason, or empty when it runs
     */
    public static Optional<String> notRunReason(String benchmark, String impl, int n) {
        boolean large = n >= 1_000_000;
        if (!large) {
            return Optional.empty();
        }
        boolean fire = benchmark.equals(FireOneTickBenchmark.class.getSimpleName())
                || benchmark.equals(FireSpreadBenchmark.class.getSimpleName());
        if (fire && impl.equals(TimerStructure.UNSORTED_LIST.name())) {
            return Optional.of("not run (O(n)): each fired timer scans the whole list, ~n^2/2 steps at n = 1e6");
        }
        if (benchmark.equals(FireOneTickBenchmark.class.getSimpleName()) && impl.equals(AGRONA)) {
            return Optional.of("not run (O(n)): Agrona's schedule scans its spoke from the start for a free cell,"
                    + " so 1e6 timers in one tick take ~n^2/2 steps to schedule");
        }
        if (benchmark.equals(RequestTimeoutBenchmark.class.getSimpleName())
                && impl.equals(TimerStructure.SORTED_LIST.name())) {
            return Optional.of("not run (O(n)): each schedule walks about n/4 nodes back from the latest deadline");
        }
        if (benchmark.equals(FireSpreadBenchmark.class.getSimpleName())
                && impl.equals(TimerStructure.SORTED_LIST.name())) {
            return Optional.of(
                    "not run (O(n)): filling it with random deadlines is an O(n) insertion each, ~n^2/4 steps");
        }
        return Optional.empty();
    }

    static void requireRun(String benchmark, String impl, int n) {
        Optional<String> reason = notRunReason(benchmark, impl, n);
        if (reason.isPresent()) {
            throw new UnsupportedOperationException(reason.get() + " [" + impl + ", n=" + n + "]");
        }
    }

    /**
     * Makes the queue {@code impl} names.
     *
     * @param impl a {@link TimerStructure} name or {@link #AGRONA}
     * @param startTime the queue's start time
     * @param agronaSpokes the spokes Agrona's wheel gets for this workload
     * @param capacity the number of slots
     * @return a new, empty queue
     * @throws IllegalArgumentException if {@code impl} is unknown
     */
    static BenchQueue create(String impl, long startTime, int agronaSpokes, int capacity) {
        if (impl.equals(AGRONA)) {
            return new AgronaBenchQueue(startTime, TICK_NANOS, agronaSpokes, capacity);
        }
        TimerStructure structure;
        try {
            structure = TimerStructure.valueOf(impl);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("impl must be a TimerStructure name or " + AGRONA + ": " + impl, e);
        }
        return new HourglassBenchQueue(structure.newQueue(startTime, TICK_NANOS), capacity);
    }
}
