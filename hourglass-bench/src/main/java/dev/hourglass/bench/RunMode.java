package dev.hourglass.bench;

import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * How long the shootout measures: quick (about five minutes on a 2-core VM, indicative) or full (JMH's long runs).
 *
 * <p>Complexity: O(1). Ordering: n/a. Thread-safety: immutable.
 */
enum RunMode {
    /** One fork, one short warm-up iteration, three short measurement iterations, a 2 GB heap. */
    QUICK("quick", 1, "-Xms2g", "-Xmx2g", 100_000),
    /** Three forks and the benchmarks' own iterations (seconds each), a 4 GB heap. */
    FULL("full", 3, "-Xms4g", "-Xmx4g", 1_000_000);

    private static final long QUICK_ITERATION_MILLIS = 200;

    private final String label;
    private final int forks;
    private final String xms;
    private final String xmx;
    private final int footprintTimers;

    RunMode(String label, int forks, String xms, String xmx, int footprintTimers) {
        this.label = label;
        this.forks = forks;
        this.xms = xms;
        this.xmx = xmx;
        this.footprintTimers = footprintTimers;
    }

    /**
     * Returns the mode's name for the report.
     *
     * @return "quick" or "full"
     */
    String label() {
        return label;
    }

    /**
     * Returns how many timers the footprint measurement schedules.
     *
     * @return the number of timers
     */
    int footprintTimers() {
        return footprintTimers;
    }

    /**
     * Sets forks, iterations and JVM arguments on a JMH options builder.
     *
     * @param builder the builder
     * @return the builder
     */
    ChainedOptionsBuilder apply(ChainedOptionsBuilder builder) {
        builder.forks(forks).jvmArgsAppend(xms, xmx, "-XX:+AlwaysPreTouch");
        if (this == QUICK) {
            builder.warmupIterations(1)
                    .warmupTime(TimeValue.milliseconds(QUICK_ITERATION_MILLIS))
                    .measurementIterations(3)
                    .measurementTime(TimeValue.milliseconds(QUICK_ITERATION_MILLIS));
        }
        return builder;
    }

    /**
     * Describes the JMH settings for the report.
     *
     * @return e.g. "1 fork, 1 x 200 ms warm-up, 3 x 200 ms measurement, -Xms2g -Xmx2g"
     */
    String describe() {
        String heap = xms + " " + xmx + " -XX:+AlwaysPreTouch";
        if (this == QUICK) {
            return forks + " fork, 1 x " + QUICK_ITERATION_MILLIS + " ms warm-up, 3 x " + QUICK_ITERATION_MILLIS
                    + " ms measurement (single-shot benchmarks: 1 + 3 shots), " + heap;
        }
        return forks + " forks, the iterations each benchmark's annotations set, " + heap;
    }
}
