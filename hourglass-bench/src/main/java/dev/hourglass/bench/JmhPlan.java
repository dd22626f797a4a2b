package dev.hourglass.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Expands workloads into single JMH runs, one per parameter combination, from the benchmark list
 * the JMH annotation processor wrote into the jar.
 *
 * <p>Complexity: O(combinations). Ordering: workloads in order; within one, {@code n} outermost and
 * {@code impl} innermost, other parameters between. Thread-safety: stateless.
 */
final class JmhPlan {

    /** Seconds a 2-core VM takes to pre-touch one GB of heap (measured: about 1.5 s for 2 GB). */
    private static final double PRETOUCH_SECONDS_PER_GB = 0.75;
    /** Seconds to schedule (and fire or cancel) one timer while filling a benchmark, roughly. */
    private static final double FILL_SECONDS_PER_TIMER = 1e-6;
    /** Seconds of a single shot's own work beyond filling. */
    private static final double SHOT_SECONDS = 0.05;
    /** JMH's iterations when a benchmark sets none. */
    private static final int JMH_DEFAULT_ITERATIONS = 5;
    /** JMH's iteration time when a benchmark sets none. */
    private static final TimeValue JMH_DEFAULT_TIME = TimeValue.seconds(10);

    private JmhPlan() {}

    /**
     * One JMH run to do: a workload at one parameter combination.
     *
     * @param workload the workload
     * @param params one value per parameter
     */
    record Run(Workload workload, Map<String, String> params) {

        /**
         * Describes the run for the progress bar.
         *
         * @return e.g. "queue-heartbeat n=1e6 k=10 impl=HIERARCHICAL_WHEEL"
         */
        String label() {
            StringBuilder label = new StringBuilder(workload.id());
            params.forEach(
                    (key, value) -> label.append(' ').append(key).append('=').append(shortNumber(value)));
            return label.toString();
        }
    }

    /**
     * Finds the benchmark list entry of a workload.
     *
     * @param workload the workload
     * @return the entry, or empty when the benchmark is not in this jar
     */
    static Optional<BenchmarkListEntry> entry(Workload workload) {
        SortedSet<BenchmarkListEntry> found = BenchmarkList.defaultList()
                .find(
                        OutputFormatFactory.createFormatInstance(System.err, VerboseMode.SILENT),
                        List.of(workload.includePattern()),
                        List.of());
        return found.isEmpty() ? Optional.empty() : Optional.of(found.first());
    }

    /**
     * Lists the runs of a workload.
     *
     * @param workload the workload
     * @param entry its benchmark list entry
     * @param fullMode true for full mode
     * @return the runs; empty if a parameter has no value in this mode
     */
    static List<Run> runs(Workload workload, BenchmarkListEntry entry, boolean fullMode) {
        Map<String, String[]> declared =
                entry.getParams().hasValue() ? entry.getParams().get() : Map.of();
        Map<String, List<String>> chosen = new TreeMap<>();
        declared.forEach((key, values) -> chosen.put(key, List.of(values)));
        chosen.putAll(workload.params(fullMode));
        List<String> keys = new ArrayList<>();
        if (chosen.containsKey("n")) {
            keys.add("n");
        }
        for (String key : chosen.keySet()) {
            if (!key.equals("n") && !key.equals("impl")) {
                keys.add(key);
            }
        }
        if (chosen.containsKey("impl")) {
            keys.add("impl");
        }
        List<Map<String, String>> combinations = new ArrayList<>();
        combinations.add(new LinkedHashMap<>());
        for (String key : keys) {
            List<Map<String, String>> next = new ArrayList<>();
            for (Map<String, String> partial : combinations) {
                for (String value : chosen.get(key)) {
                    Map<String, String> extended = new LinkedHashMap<>(partial);
                    extended.put(key, value);
                    next.add(extended);
                }
            }
            combinations = next;
        }
        List<Run> runs = new ArrayList<>();
        for (Map<String, String> params : combinations) {
            runs.add(new Run(workload, params));
        }
        return runs;
    }

    /**
     * Estimates how long a run takes on an idle machine, from JMH's settings: per fork, a JVM start
     * (and pre-touching the heap when asked), the warm-up and measurement iterations (or shots,
     * each filling {@code n} timers), and filling {@code n} timers once. A guide for planning, not a
     * promise.
     *
     * @param entry the benchmark's list entry, with its annotations' iterations
     * @param run the run
     * @param settings the JMH settings
     * @return seconds
     */
    static double estimateSeconds(BenchmarkListEntry entry, Run run, JmhSettings settings) {
        double start = 1.0;
        if (settings.jvmArgs().contains("-XX:+AlwaysPreTouch")) {
            for (String arg : settings.jvmArgs()) {
                if (arg.startsWith("-Xmx") && arg.endsWith("g")) {
                    start += PRETOUCH_SECONDS_PER_GB * Integer.parseInt(arg.substring(4, arg.length() - 1));
                }
            }
        }
        String n = run.params().get("n");
        double fill = n == null ? 0 : Long.parseLong(n) * FILL_SECONDS_PER_TIMER;
        int warmups = settings.warmupIterations() > 0
                ? settings.warmupIterations()
                : entry.getWarmupIterations().orElse(JMH_DEFAULT_ITERATIONS);
        int measurements = settings.measurementIterations() > 0
                ? settings.measurementIterations()
                : entry.getMeasurementIterations().orElse(JMH_DEFAULT_ITERATIONS);
        double perFork;
        if (entry.getMode() == Mode.SingleShotTime) {
            perFork = (warmups + measurements) * (SHOT_SECONDS + fill);
        } else {
            double warmupTime = settings.iterationMillis() > 0
                    ? settings.iterationMillis() * 2 / 1000.0
                    : seconds(entry.getWarmupTime().orElse(JMH_DEFAULT_TIME));
            double measurementTime = settings.iterationMillis() > 0
                    ? settings.iterationMillis() / 1000.0
                    : seconds(entry.getMeasurementTime().orElse(JMH_DEFAULT_TIME));
            perFork = warmups * warmupTime + measurements * measurementTime + fill;
        }
        return settings.forks() * (start + perFork);
    }

    private static double seconds(TimeValue time) {
        return time.convertTo(TimeUnit.MILLISECONDS) / 1000.0;
    }

    /**
     * Writes powers of ten as {@code 1e6}, anything else as it is.
     *
     * @param value a parameter value
     * @return the short form
     */
    static String shortNumber(String value) {
        if (value.matches("10{3,}")) {
            return "1e" + (value.length() - 1);
        }
        return value;
    }
}
