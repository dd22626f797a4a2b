package dev.hourglass.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * How long the shootout measures. Quick (the default): one fork, one short warm-up and five short
 * measurement iterations, a 2 GB heap, indicative only. Full (for publication): three forks, the
 * iterations each benchmark's annotations set (seconds each), a fixed, pre-touched 4 GB heap.
 * Either can be shortened for a smoke run ({@code --forks}, {@code --iterations}, {@code
 * --iteration-ms}).
 *
 * <p>Complexity: O(1). Ordering: n/a. Thread-safety: immutable.
 *
 * @param full true for the full mode (its workloads' full parameter values)
 * @param forks JVM forks per parameter combination
 * @param jvmArgs the forks' JVM arguments
 * @param warmupIterations warm-up iterations, or 0 for the benchmark's own
 * @param measurementIterations measurement iterations, or 0 for the benchmark's own
 * @param iterationMillis the length of each iteration, or 0 for the benchmark's own
 * @param footprintTimers how many timers the footprint measurement schedules
 */
record JmhSettings(
        boolean full,
        int forks,
        List<String> jvmArgs,
        int warmupIterations,
        int measurementIterations,
        long iterationMillis,
        int footprintTimers) {

    /** The forks a verdict needs: fewer make every verdict of a run provisional. */
    static final int FORKS_FOR_A_VERDICT = 3;

    JmhSettings {
        jvmArgs = List.copyOf(jvmArgs);
        requireNotNegative("forks", forks);
        requireNotNegative("warmupIterations", warmupIterations);
        requireNotNegative("measurementIterations", measurementIterations);
        requireNotNegative("iterationMillis", iterationMillis);
    }

    /**
     * Returns the quick settings.
     *
     * @return 1 fork, 1 x 200 ms warm-up, 5 x 100 ms measurement, -Xms2g -Xmx2g
     */
    static JmhSettings quickMode() {
        // no -XX:+AlwaysPreTouch: touching 2 GB costs more than a second per fork on a small VM
        return new JmhSettings(false, 1, List.of("-Xms2g", "-Xmx2g"), 1, 5, 100, 100_000);
    }

    /**
     * Returns the full settings, for publication.
     *
     * @return 3 forks, the benchmarks' own iterations, -Xms4g -Xmx4g -XX:+AlwaysPreTouch
     */
    static JmhSettings fullMode() {
        return new JmhSettings(
                true, FORKS_FOR_A_VERDICT, List.of("-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch"), 0, 0, 0, 1_000_000);
    }

    /**
     * Returns these settings with some overridden; 0 keeps a value.
     *
     * @param newForks forks, or 0
     * @param iterations measurement iterations (warm-up: 1), or 0
     * @param millis iteration length, or 0
     * @return the new settings
     */
    JmhSettings with(int newForks, int iterations, long millis) {
        return new JmhSettings(
                full,
                newForks == 0 ? forks : newForks,
                jvmArgs,
                iterations == 0 ? warmupIterations : 1,
                iterations == 0 ? measurementIterations : iterations,
                millis == 0 ? iterationMillis : millis,
                footprintTimers);
    }

    /**
     * Tells whether the verdicts of a run with these settings are provisional.
     *
     * @return true with fewer than {@link #FORKS_FOR_A_VERDICT} forks
     */
    boolean provisional() {
        return forks < FORKS_FOR_A_VERDICT;
    }

    /**
     * Returns the mode's name for the report.
     *
     * @return "quick" or "full"
     */
    String label() {
        return full ? "full" : "quick";
    }

    /**
     * Sets forks, iterations and JVM arguments on a JMH options builder.
     *
     * @param builder the builder
     * @return the builder
     */
    ChainedOptionsBuilder apply(ChainedOptionsBuilder builder) {
        builder.forks(forks).jvmArgsAppend(jvmArgs.toArray(String[]::new));
        if (warmupIterations > 0) {
            builder.warmupIterations(warmupIterations);
        }
        if (measurementIterations > 0) {
            builder.measurementIterations(measurementIterations);
        }
        if (iterationMillis > 0) {
            builder.warmupTime(TimeValue.milliseconds(iterationMillis * 2))
                    .measurementTime(TimeValue.milliseconds(iterationMillis));
        }
        return builder;
    }

    /**
     * Describes the JMH settings for the report.
     *
     * @return e.g. "1 fork, 1 x 200 ms warm-up, 5 x 100 ms measurement, -Xms2g -Xmx2g"
     */
    String describe() {
        List<String> parts = new ArrayList<>();
        parts.add(forks + (forks == 1 ? " fork" : " forks"));
        if (warmupIterations == 0 && measurementIterations == 0 && iterationMillis == 0) {
            parts.add("the iterations each benchmark's annotations set");
        } else {
            String time = iterationMillis == 0 ? "" : String.format(Locale.ROOT, " x %d ms", iterationMillis * 2);
            parts.add(warmupIterations + time + " warm-up");
            time = iterationMillis == 0 ? "" : String.format(Locale.ROOT, " x %d ms", iterationMillis);
            parts.add(measurementIterations + time + " measurement (single-shot benchmarks: " + warmupIterations + " + "
                    + measurementIterations + " shots)");
        }
        parts.add(String.join(" ", jvmArgs));
        return String.join(", ", parts);
    }

    private static void requireNotNegative(String name, long value) {
        if (value < 0) {
            throw new IllegalArgumentException(name + " must not be negative: " + value);
        }
    }
}
