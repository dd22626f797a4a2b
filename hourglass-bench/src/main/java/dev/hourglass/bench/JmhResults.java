package dev.hourglass.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns JMH's JSON result file ({@code -rf json}) into {@link Measurement}s: the primary score and
 * its 99.9% error (divided by {@code n} for per-timer workloads), the number of forks behind it, and
 * the secondary CPU counters of the driver benchmarks ({@code workerCpuNanos}, {@code
 * callerCpuNanos}). The report is generated from these files only, so a run folder can be
 * regenerated and a test can feed a fixed file.
 *
 * <p>Complexity: O(size of the file). Ordering: as in the file. Thread-safety: stateless.
 */
final class JmhResults {

    /** JMH's secondary result with the timer threads' CPU per operation (see driver.WorkerCpu). */
    static final String DRIVER_CPU = "workerCpuNanos";

    /** JMH's secondary result with the calling thread's CPU per operation. */
    static final String CALLER_CPU = "callerCpuNanos";

    private JmhResults() {}

    /**
     * Reads a JMH JSON result file.
     *
     * @param json the file's text: an array of benchmark results
     * @param workloads the workloads the benchmarks belong to
     * @return one measurement per benchmark result, in file order
     * @throws IllegalArgumentException if the text is not a JMH result array, or names a benchmark
     *     that is no workload's
     */
    static List<Measurement> read(String json, List<Workload> workloads) {
        if (!(Json.parse(json) instanceof List<?> entries)) {
            throw new IllegalArgumentException("a JMH result file must hold a JSON array");
        }
        List<Measurement> measurements = new ArrayList<>();
        for (Object entry : entries) {
            measurements.add(measurement(map(entry, "result"), workloads));
        }
        return measurements;
    }

    private static Measurement measurement(Map<String, Object> entry, List<Workload> workloads) {
        String benchmark = String.valueOf(entry.get("benchmark"));
        Workload workload = workloads.stream()
                .filter(w -> (w.benchmarkClass() + "." + w.method()).equals(benchmark))
                .findFirst()
                .orElseThrow(
                        () -> new IllegalArgumentException("benchmark is no workload of the shootout: " + benchmark));
        Map<String, String> params = new LinkedHashMap<>();
        Object declared = entry.get("params");
        if (declared != null) {
            map(declared, "params").forEach((key, value) -> params.put(key, String.valueOf(value)));
        }
        Map<String, Object> primary = map(entry.get("primaryMetric"), "primaryMetric");
        double divisor = workload.perTimer() ? Double.parseDouble(params.get("n")) : 1;
        int forks = list(primary.get("rawData")).size();
        Map<String, Object> secondary =
                entry.get("secondaryMetrics") == null ? Map.of() : map(entry.get("secondaryMetrics"), "secondary");
        return new Measurement(
                workload,
                params,
                Json.number(primary.get("score")) / divisor,
                Json.number(primary.get("scoreError")) / divisor,
                forks,
                perIteration(secondary.get(DRIVER_CPU)),
                perIteration(secondary.get(CALLER_CPU)),
                null);
    }

    /**
     * Reads a CPU counter. Each benchmark thread reports its share of each iteration's figure (the
     * figure divided by the thread and iteration counts, see driver.WorkerCpu), so a fork's figure
     * is the sum of its raw values; the result is the mean over the forks.
     */
    private static double perIteration(Object metric) {
        if (metric == null) {
            return Double.NaN;
        }
        List<?> forks = list(map(metric, "metric").get("rawData"));
        if (forks.isEmpty()) {
            return Double.NaN;
        }
        double sum = 0;
        for (Object fork : forks) {
            for (Object value : list(fork)) {
                sum += Json.number(value);
            }
        }
        return sum / forks.size();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value, String what) {
        if (value instanceof Map<?, ?> map) {
            return (Map<String, Object>) map;
        }
        throw new IllegalArgumentException("JMH result: " + what + " must be an object, not " + value);
    }

    private static List<?> list(Object value) {
        if (value instanceof List<?> list) {
            return list;
        }
        throw new IllegalArgumentException("JMH result: rawData must be an array, not " + value);
    }
}
