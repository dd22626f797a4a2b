package dev.hourglass.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Expands workloads into single JMH runs, one per parameter combination, from the benchmark list
 * the JMH annotation processor wrote into the jar.
 *
 * <p>Complexity: O(combinations). Ordering: workloads in order; within one, {@code n} outermost and
 * {@code impl} innermost, other parameters between. Thread-safety: stateless.
 */
final class JmhPlan {

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
