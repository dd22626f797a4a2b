package dev.hourglass.bench;

import dev.hourglass.bench.queue.BenchQueues;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Checks the complexity table against the measurements: how much each structure's cost grows when
 * N grows 100-fold (1e4 to 1e6), against what its complexity predicts (O(1) about 1x, O(log n)
 * about 1.5x, O(n) about 100x). Because the working set leaves the CPU caches on the way, the
 * accepted ranges are wide: O(1) up to 3x, O(log n) 1x to 6x, O(n) (and O(n / slots)) from 10x.
 *
 * <p>Complexity: O(measurements). Ordering: workloads, then groups, then impls in run order.
 * Thread-safety: stateless.
 */
final class GrowthCheck {

    static final long SMALL = 10_000;
    static final long LARGE = 1_000_000;

    /** A complexity class with its predicted growth and accepted range over a 100-fold N. */
    enum Complexity {
        /** Constant. */
        CONSTANT("O(1)", 1, 0, 3),
        /** Logarithmic. */
        LOG("O(log n)", 1.5, 1, 6),
        /** Linear in the timers per bucket or spoke: linear in n for a fixed number of slots. */
        PER_SLOT("O(n / slots)", 100, 10, Double.POSITIVE_INFINITY),
        /** Linear. */
        LINEAR("O(n)", 100, 10, Double.POSITIVE_INFINITY);

        final String label;
        final double predicted;
        final double low;
        final double high;

        Complexity(String label, double predicted, double low, double high) {
            this.label = label;
            this.predicted = predicted;
            this.low = low;
            this.high = high;
        }
    }

    /**
     * One line of the check.
     *
     * @param workload the workload's title
     * @param group the other parameters, e.g. "k=10"
     * @param impl the structure
     * @param operation what the table's column is
     * @param complexity what the table predicts
     * @param growth the measured cost at 1e6 over the cost at 1e4, or NaN
     * @param verdict "as predicted", "grows faster than predicted", ..., or why it is missing
     */
    record Line(
            String workload,
            String group,
            String impl,
            String operation,
            Complexity complexity,
            double growth,
            String verdict) {}

    private GrowthCheck() {}

    /**
     * Builds the check from the heartbeat and request-timeout results.
     *
     * @param results the shootout's results
     * @return the lines
     */
    static List<Line> lines(Results results) {
        List<Line> lines = new ArrayList<>();
        for (Workload workload : Workloads.all()) {
            String operation = operation(workload.id());
            if (operation == null) {
                continue;
            }
            for (Map.Entry<Map<String, String>, List<Measurement>> group :
                    results.groups(workload).entrySet()) {
                for (String impl : Results.impls(group.getValue())) {
                    Complexity predicted = predicted(workload.id(), impl);
                    Optional<Measurement> small = Results.find(group.getValue(), impl, SMALL);
                    Optional<Measurement> large = Results.find(group.getValue(), impl, LARGE);
                    double growth = Double.NaN;
                    String verdict;
                    if (small.isEmpty() || large.isEmpty()) {
                        verdict = "needs n = 1e4 and 1e6";
                    } else if (!small.get().ok() || !large.get().ok()) {
                        verdict = !large.get().ok()
                                ? large.get().status()
                                : small.get().status();
                    } else {
                        growth = large.get().score() / small.get().score();
                        verdict = verdict(predicted, growth);
                    }
                    lines.add(new Line(
                            workload.title(),
                            Format.params(group.getKey()),
                            impl,
                            operation,
                            predicted,
                            growth,
                            verdict));
                }
            }
        }
        return lines;
    }

    static String verdict(Complexity predicted, double growth) {
        if (growth < predicted.low) {
            return "grows slower than predicted";
        }
        if (growth > predicted.high) {
            return "grows faster than predicted";
        }
        return "as predicted";
    }

    private static String operation(String workloadId) {
        switch (workloadId) {
            case "queue-heartbeat":
                return "reschedule";
            case "queue-request":
                return "schedule + cancel";
            default:
                return null;
        }
    }

    /**
     * Returns what the complexity table predicts for a structure's dominant operation in a
     * workload.
     *
     * @param workloadId queue-heartbeat (reschedule) or queue-request (schedule + cancel)
     * @param impl a TimerStructure name or AGRONA
     * @return the predicted class
     */
    static Complexity predicted(String workloadId, String impl) {
        switch (impl) {
            case "SORTED_LIST":
                return Complexity.LINEAR;
            case "RED_BLACK_TREE":
            case "BINARY_HEAP":
            case "QUATERNARY_HEAP":
            case "SKIP_LIST":
                return Complexity.LOG;
            case "SORTED_HASHED_WHEEL":
                return Complexity.PER_SLOT;
            case BenchQueues.AGRONA:
                // its schedule scans the deadline's spoke for a free cell
                return Complexity.PER_SLOT;
            default:
                return Complexity.CONSTANT;
        }
    }
}
