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
 * @param forks how many JVM forks the score comes from (0 when not measured)
 * @param driverCpu the CPU nanoseconds the timer's own threads spent per operation (JMH's {@code
 *     workerCpuNanos}), or NaN when the benchmark does not measure it
 * @param callerCpu the CPU nanoseconds the calling thread spent per operation (JMH's {@code
 *     callerCpuNanos}), or NaN
 * @param status null when measured, else why not ("not run (O(n)): ...", "failed: ...")
 */
record Measurement(
        Workload workload,
        Map<String, String> params,
        double score,
        double error,
        int forks,
        double driverCpu,
        double callerCpu,
        String status) {

    Measurement {
        Objects.requireNonNull(workload, "workload");
        params = Collections.unmodifiableMap(new LinkedHashMap<>(params));
    }

    /**
     * Makes a measurement without CPU figures.
     *
     * @param workload the workload
     * @param params the parameters
     * @param score the score
     * @param error the 99.9% half-width
     * @param forks the forks
     * @return the measurement
     */
    static Measurement of(Workload workload, Map<String, String> params, double score, double error, int forks) {
        return new Measurement(workload, params, score, error, forks, Double.NaN, Double.NaN, null);
    }

    /**
     * Makes a measurement that has no score.
     *
     * @param workload the workload
     * @param params the parameters
     * @param status why there is no score
     * @return the measurement
     */
    static Measurement missing(Workload workload, Map<String, String> params, String status) {
        return new Measurement(
                workload, params, Double.NaN, Double.NaN, 0, Double.NaN, Double.NaN, Objects.requireNonNull(status));
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
        return number("n");
    }

    /**
     * Returns the value of the workload's swept parameter (the chart's x axis), or -1.
     *
     * @return e.g. n, or the thread count for the contention workload
     */
    long x() {
        return number(workload.sweep());
    }

    private long number(String key) {
        String value = params.get(key);
        return value == null ? -1 : Long.parseLong(value);
    }
}
