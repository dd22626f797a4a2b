package dev.hourglass.bench;

import dev.hourglass.bench.footprint.FootprintRow;
import dev.hourglass.bench.queue.BenchQueues;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The performance targets, each computed from this run's results as MET, NOT MET or NOT
 * MEASURED (see {@link Verdict}: MET only when the whole 99.9% interval is on the target's side,
 * from enough forks), with the number and what limits the verdict.
 *
 * <p>Complexity: O(measurements). Ordering: the order. Thread-safety: stateless.
 */
final class Targets {

    private static final Set<String> WHEELS =
            Set.of("SIMPLE_WHEEL", "HASHED_WHEEL", "SORTED_HASHED_WHEEL", "HIERARCHICAL_WHEEL");
    private static final String HOURGLASS_PREFIX = "HOURGLASS_";
    private static final long LARGE = 1_000_000;
    private static final String NOT_MEASURED = "NOT MEASURED";

    /**
     * One target.
     *
     * @param target what the issue asks
     * @param status MET, NOT MET or NOT MEASURED
     * @param measured the number behind the status
     */
    record Line(String target, String status, String measured) {}

    private Targets() {}

    /**
     * Computes every target.
     *
     * @param results the shootout's results
     * @return one line per target
     */
    static List<Line> lines(Results results) {
        List<Line> lines = new ArrayList<>();
        lines.add(speedup(
                results,
                "queue-heartbeat",
                "k",
                "10",
                "heartbeat, N = 1e6, K = 10, queue level: best Hourglass queue ≥ 1.5× Agrona's DeadlineTimerWheel",
                List.of(BenchQueues.AGRONA),
                1.5,
                false));
        lines.add(bound(
                results,
                "queue-request",
                "request timeouts, N = 1e6, queue level: best queue ≤ 30 ns per schedule + cancel pair",
                false,
                30));
        lines.add(bound(
                results,
                "queue-fire-one-tick",
                "expiry: best wheel ≤ 20 ns per fired timer (1e6 due in one tick)",
                true,
                20));
        lines.add(footprint(results.footprint()));
        lines.add(speedup(
                results,
                "driver-heartbeat",
                "k",
                "10",
                "heartbeat, N = 1e6, K = 10, thread-safe Timer: ≥ 3× Netty's HashedWheelTimer",
                List.of("NETTY_HASHED_WHEEL"),
                3,
                true));
        lines.add(speedup(
                results,
                "driver-request",
                null,
                null,
                "request timeouts, N = 1e6, thread-safe Timer: ≥ 2× Netty's HashedWheelTimer and the JDK executor",
                List.of("NETTY_HASHED_WHEEL", "JDK_STPE_REMOVE_ON_CANCEL", "JDK_STPE_KEEP_CANCELLED"),
                2,
                true));
        lines.add(new Line(
                "lateness, timer-thread driver, 1 ms tick, 1e6 pending: p99 ≤ 1 tick + 200 µs; idle driver uses no"
                        + " CPU",
                NOT_MEASURED,
                "not part of the shootout: measured by DriverLatenessBenchmark, see docs/driver-targets.md"));
        return lines;
    }

    private static Line speedup(
            Results results,
            String workloadId,
            String key,
            String value,
            String target,
            List<String> anchors,
            double needed,
            boolean driver) {
        List<Measurement> candidates = new ArrayList<>();
        for (Measurement m : results.of(workloadId)) {
            if (m.ok()
                    && m.n() == LARGE
                    && (key == null || value.equals(m.params().get(key)))) {
                candidates.add(m);
            }
        }
        Optional<Measurement> best =
                best(candidates, driver ? m -> m.impl().startsWith(HOURGLASS_PREFIX) : m -> isHourglass(m.impl()));
        if (best.isEmpty()) {
            return new Line(target, NOT_MEASURED, "no Hourglass result for " + workloadId + " at N = 1e6");
        }
        StringBuilder measured = new StringBuilder("best " + best.get().impl() + " " + Format.score(best.get()));
        boolean met = true;
        boolean any = false;
        for (String anchor : anchors) {
            Optional<Measurement> a =
                    candidates.stream().filter(m -> m.impl().equals(anchor)).findFirst();
            if (a.isEmpty()) {
                measured.append("; ").append(anchor).append(" not measured");
                met = false;
                continue;
            }
            any = true;
            Verdict verdict = Verdict.speedup(best.get(), a.get(), needed);
            measured.append("; ")
                    .append(Format.ratio(verdict.value()))
                    .append(' ')
                    .append(anchor)
                    .append(" (")
                    .append(verdict.limit())
                    .append(')');
            met &= verdict.favourable();
        }
        return new Line(target, any ? (met ? Verdict.MET : Verdict.NOT_MET) : NOT_MEASURED, measured.toString());
    }

    private static Line bound(Results results, String workloadId, String target, boolean wheelsOnly, double limit) {
        List<Measurement> candidates = new ArrayList<>();
        for (Measurement m : results.of(workloadId)) {
            if (m.ok() && m.n() == LARGE && (!wheelsOnly || WHEELS.contains(m.impl()))) {
                candidates.add(m);
            }
        }
        Optional<Measurement> best = best(candidates, m -> isHourglass(m.impl()));
        if (best.isEmpty()) {
            return new Line(target, NOT_MEASURED, "no result for " + workloadId + " at N = 1e6");
        }
        Verdict verdict = Verdict.atMost(best.get(), limit);
        return new Line(
                target,
                verdict.word(),
                "best " + best.get().impl() + " " + Format.score(best.get()) + " "
                        + best.get().workload().unit() + " (" + verdict.limit() + ")");
    }

    private static Line footprint(List<FootprintRow> rows) {
        String target = "footprint: ≤ 40 bytes per pending timer in the wheels";
        StringBuilder measured = new StringBuilder();
        boolean met = true;
        boolean any = false;
        for (FootprintRow row : rows) {
            if (WHEELS.contains(row.impl())) {
                any = true;
                met &= row.bytesPerPending() < 40.05;
                if (measured.length() > 0) {
                    measured.append("; ");
                }
                measured.append(row.impl())
                        .append(' ')
                        .append(Format.number(row.bytesPerPending()))
                        .append(" B");
            }
        }
        if (!any) {
            return new Line(target, NOT_MEASURED, "no footprint rows");
        }
        return new Line(target, met ? Verdict.MET : Verdict.NOT_MET, measured.toString());
    }

    private static Optional<Measurement> best(List<Measurement> candidates, Predicate<Measurement> ours) {
        return candidates.stream().filter(ours).min((a, b) -> Double.compare(a.score(), b.score()));
    }

    private static boolean isHourglass(String impl) {
        return !impl.equals(BenchQueues.AGRONA);
    }
}
