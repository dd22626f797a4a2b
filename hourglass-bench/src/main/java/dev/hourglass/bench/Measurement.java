package dev.hourglass.bench;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One parameter combination of a workload and what became of it: a score, or why there is none.
 *
 * <p>Complexity: O(1). Ordering: n/a. Thread-safety: immutable.
 *
 * @param workload the workload
 * @param params every parameter's value, {@code impl} and {@code n} included
 * @param score the score in the workload's unit (already divided by {@code n} for per-timer
 *     workloads), or NaN
 * @param error JMH's 99.9% confidence half-width in the same unit, or NaN when there are too few
 *     samples
 * @param status null when measured, else why not ("not run (O(n)): ...", "failed: ...")
 */
record Measurement(Workload workload, Map<String, String> params, double score, double error, String status) {

    Measurement {
        params = Collections.unmodifiableMap(new LinkedHashMap<>(params));
    }

    /**
     * Tells whether the measurement has a score.
     *
     * @return true if measured
     */
    boolean ok() {
        return status == null;
    }

    /**
     * Returns the {@code impl} parameter.
     *
     * @return the implementation's name
     */
    String impl() {
        return Objects.requireNonNullElse(params.get("impl"), "?");
    }

    /**
     * Returns the {@code n} parameter, or -1 if the benchmark has none.
     *
     * @return the number of timers
     */
    long n() {
        String n = params.get("n");
        return n == null ? -1 : Long.parseLong(n);
    }
}
