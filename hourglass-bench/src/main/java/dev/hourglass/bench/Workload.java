package dev.hourglass.bench;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One workload of the shootout: a JMH benchmark method, the parameter values it runs with in quick
 * and in full mode, and how to read its score. Adding a workload to the shootout is adding one of
 * these to {@link Workloads}.
 *
 * <p>Parameters the maps leave out run with the benchmark's own {@code @Param} values. The
 * benchmark's {@code impl} parameter names the structure or timer; {@code n} the number of timers.
 *
 * <p>Complexity: O(1). Ordering: n/a. Thread-safety: immutable.
 *
 * @param id a short name, also the chart's file name
 * @param title the heading in the report
 * @param level whether it measures single-threaded queues or thread-safe timers
 * @param benchmarkClass the benchmark's fully qualified class name
 * @param method the benchmark method
 * @param quick parameter values for quick mode
 * @param full parameter values for full mode
 * @param anchors the {@code impl} values that ratios are taken against, in order
 * @param unit what the score counts, e.g. "ns per operation"
 * @param perTimer true if the score is for all {@code n} timers and must be divided by {@code n}
 * @param description how the workload works, one or two sentences for the report
 * @param sweep the parameter the charts put on the x axis and the tables in columns: {@code n},
 *     or {@code threads} for contention
 */
record Workload(
        String id,
        String title,
        Level level,
        String benchmarkClass,
        String method,
        Map<String, List<String>> quick,
        Map<String, List<String>> full,
        List<String> anchors,
        String unit,
        boolean perTimer,
        String description,
        String sweep) {

    /** Whether a workload measures single-threaded queues or thread-safe timers. */
    enum Level {
        /** Single-threaded queues under a simulated clock: the structure alone. */
        QUEUE,
        /** Thread-safe timers with their threads: what a server calls. */
        DRIVER
    }

    Workload {
        Objects.requireNonNull(sweep, "sweep");
        quick = Map.copyOf(quick);
        full = Map.copyOf(full);
        anchors = List.copyOf(anchors);
    }

    /**
     * Returns the JMH include pattern that selects exactly this benchmark method.
     *
     * @return the regular expression
     */
    String includePattern() {
        return "^" + Pattern.quote(benchmarkClass + "." + method) + "$";
    }

    /**
     * Returns the parameter values for a mode.
     *
     * @param fullMode true for full mode
     * @return the values, by parameter name
     */
    Map<String, List<String>> params(boolean fullMode) {
        return fullMode ? full : quick;
    }

    /**
     * Names the swept parameter for an axis or a column, with its unit.
     *
     * @return e.g. "timers pending (n)"
     */
    String sweepLabel() {
        return sweep.equals("threads") ? "producer threads" : "timers (n)";
    }

    /**
     * Tells whether the workload measures thread-safe timers, whose threads' CPU the report shows.
     *
     * @return true at driver level
     */
    boolean driver() {
        return level == Level.DRIVER;
    }
}
