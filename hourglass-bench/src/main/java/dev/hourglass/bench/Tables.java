package dev.hourglass.bench;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The report's two tables per workload group: the scores (with the timer threads' CPU beside the
 * caller's time at driver level), and the verdicts against each anchor.
 *
 * <p>Complexity: O(impls × sizes × anchors). Ordering: impls in run order, sizes ascending.
 * Thread-safety: stateless.
 */
final class Tables {

    private Tables() {}

    /**
     * Formats the scores of one group: a row per impl, a column per size (and, at driver level, the
     * timer threads' CPU per operation beside each).
     *
     * @param workload the workload
     * @param group its measurements with the same other parameters
     * @return the Markdown table and its notes
     */
    static String scores(Workload workload, List<Measurement> group) {
        List<Long> xs = Results.xs(group);
        StringBuilder md = new StringBuilder("| impl |");
        StringBuilder rule = new StringBuilder("| --- |");
        for (long x : xs) {
            md.append(' ').append(column(workload, x)).append(workload.driver() ? " time |" : " |");
            rule.append(" ---: |");
            if (workload.driver()) {
                md.append(' ').append(column(workload, x)).append(" driver CPU |");
                rule.append(" ---: |");
            }
        }
        md.append('\n').append(rule).append('\n');
        Set<String> notes = new LinkedHashSet<>();
        for (String impl : Results.impls(group)) {
            md.append("| ").append(impl).append(" |");
            for (long x : xs) {
                Optional<Measurement> m = Results.find(group, impl, x);
                md.append(' ').append(m.map(Format::score).orElse("")).append(" |");
                if (workload.driver()) {
                    md.append(' ')
                            .append(m.filter(Measurement::ok)
                                    .map(v -> Format.number(v.driverCpu()))
                                    .orElse(""))
                            .append(" |");
                }
                m.filter(v -> !v.ok())
                        .ifPresent(v -> notes.add(impl + " at " + column(workload, x) + ": " + v.status()));
            }
            md.append('\n');
        }
        for (String note : notes) {
            md.append("\n- ").append(note);
        }
        if (!notes.isEmpty()) {
            md.append('\n');
        }
        return md.toString();
    }

    /**
     * Formats the verdicts of one group: a row per impl that is not an anchor, a column per size,
     * in each cell the ratio to every anchor with its interval and verdict.
     *
     * @param workload the workload
     * @param group its measurements with the same other parameters
     * @return the Markdown table, or "" when the group has no anchor
     */
    static String verdicts(Workload workload, List<Measurement> group) {
        List<String> anchors = anchors(workload, group);
        if (anchors.isEmpty()) {
            return "";
        }
        List<Long> xs = Results.xs(group);
        StringBuilder md = new StringBuilder("| impl, vs anchor |");
        StringBuilder rule = new StringBuilder("| --- |");
        for (long x : xs) {
            md.append(' ').append(column(workload, x)).append(" |");
            rule.append(" --- |");
        }
        md.append('\n').append(rule).append('\n');
        for (String impl : Results.impls(group)) {
            if (workload.anchors().contains(impl)) {
                continue;
            }
            md.append("| ").append(impl).append(" |");
            for (long x : xs) {
                List<String> cell = new ArrayList<>();
                for (String anchor : anchors) {
                    verdict(group, impl, anchor, x).ifPresent(v -> cell.add("vs " + anchor + " " + v.ratioText()));
                }
                md.append(' ')
                        .append(cell.isEmpty() ? "n/a" : String.join("<br>", cell))
                        .append(" |");
            }
            md.append('\n');
        }
        return md.toString();
    }

    /**
     * Compares an impl with an anchor at one size, when both were measured.
     *
     * @param group the group
     * @param impl the impl
     * @param anchor the anchor
     * @param x the size
     * @return the verdict, or empty
     */
    static Optional<Verdict> verdict(List<Measurement> group, String impl, String anchor, long x) {
        Optional<Measurement> ours = Results.find(group, impl, x).filter(Measurement::ok);
        Optional<Measurement> theirs = Results.find(group, anchor, x).filter(Measurement::ok);
        if (ours.isEmpty() || theirs.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(Verdict.compare(ours.get(), theirs.get()));
    }

    /**
     * Lists the workload's anchors that this group measured.
     *
     * @param workload the workload
     * @param group the group
     * @return the anchors, in the workload's order
     */
    static List<String> anchors(Workload workload, List<Measurement> group) {
        Set<String> impls = Results.impls(group);
        return workload.anchors().stream().filter(impls::contains).toList();
    }

    /**
     * Names a size's column.
     *
     * @param workload the workload
     * @param x the swept value
     * @return e.g. "n=1e4" or "threads=2"
     */
    static String column(Workload workload, long x) {
        return workload.sweep() + "=" + JmhPlan.shortNumber(Long.toString(x));
    }
}
