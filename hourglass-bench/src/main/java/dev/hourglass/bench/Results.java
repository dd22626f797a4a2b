package dev.hourglass.bench;

import dev.hourglass.bench.footprint.FootprintRow;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Everything one shootout measured: the JMH measurements, the footprint rows, and the workloads
 * that could not run at all (their benchmark class is missing).
 *
 * <p>Complexity: lookups are linear scans (a few hundred measurements). Ordering: as measured.
 * Thread-safety: built on one thread, then only read.
 *
 * @param measurements every measurement, including those not run or failed
 * @param footprint the footprint rows
 * @param unavailable workloads whose benchmark is not in the jar, with the reason
 */
record Results(List<Measurement> measurements, List<FootprintRow> footprint, Map<Workload, String> unavailable) {

    /**
     * Returns the measurements of one workload.
     *
     * @param workload the workload
     * @return its measurements, in run order
     */
    List<Measurement> of(Workload workload) {
        List<Measurement> found = new ArrayList<>();
        for (Measurement m : measurements) {
            if (m.workload().equals(workload)) {
                found.add(m);
            }
        }
        return found;
    }

    /**
     * Returns the measurements of the workload with this id.
     *
     * @param workloadId the workload's id
     * @return its measurements
     */
    List<Measurement> of(String workloadId) {
        List<Measurement> found = new ArrayList<>();
        for (Measurement m : measurements) {
            if (m.workload().id().equals(workloadId)) {
                found.add(m);
            }
        }
        return found;
    }

    /**
     * Groups a workload's measurements by their parameters other than {@code impl} and the swept
     * one (e.g. one group per K).
     *
     * @param workload the workload
     * @return the groups, keyed by the other parameters, in run order
     */
    Map<Map<String, String>, List<Measurement>> groups(Workload workload) {
        Map<Map<String, String>, List<Measurement>> groups = new LinkedHashMap<>();
        for (Measurement m : of(workload)) {
            groups.computeIfAbsent(others(m), key -> new ArrayList<>()).add(m);
        }
        return groups;
    }

    /**
     * Finds the measurement of an impl at one value of the swept parameter within a group.
     *
     * @param group measurements of one group
     * @param impl the impl
     * @param x the swept parameter's value, e.g. the number of timers
     * @return the measurement, if there is one
     */
    static Optional<Measurement> find(List<Measurement> group, String impl, long x) {
        for (Measurement m : group) {
            if (m.impl().equals(impl) && m.x() == x) {
                return Optional.of(m);
            }
        }
        return Optional.empty();
    }

    /**
     * Lists the impls of a group in run order.
     *
     * @param group measurements of one group
     * @return the impls
     */
    static Set<String> impls(List<Measurement> group) {
        Set<String> impls = new LinkedHashSet<>();
        group.forEach(m -> impls.add(m.impl()));
        return impls;
    }

    /**
     * Lists the values of the swept parameter of a group, ascending.
     *
     * @param group measurements of one group
     * @return the values
     */
    static List<Long> xs(List<Measurement> group) {
        return group.stream().map(Measurement::x).distinct().sorted().toList();
    }

    /**
     * Returns the parameters other than {@code impl} and the swept one.
     *
     * @param m a measurement
     * @return the others, in their order
     */
    static Map<String, String> others(Measurement m) {
        Map<String, String> others = new LinkedHashMap<>();
        m.params().forEach((key, value) -> {
            if (!key.equals("impl") && !key.equals(m.workload().sweep())) {
                others.put(key, value);
            }
        });
        return others;
    }
}
