package dev.hourglass.redis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The figures of {@link RedisBenchMain}: for each metric and contender the value of every
 * repetition, printed as a markdown table of mean and min–max, with the target and a
 * verdict beside the Hourglass-defaults column: MET when every repetition meets the target, not met
 * when none does, tie otherwise.
 *
 * <p>Complexity: O(values). Ordering: rows and columns in the order first added. Thread-safety: not
 * thread-safe; one thread.
 */
final class BenchTable {
    /** A row: what is measured, its unit, and the target if it has one. */
    record Metric(String label, String unit, double target, boolean atLeast, String format) {
        static Metric of(String label, String unit, String format) {
            return new Metric(label, unit, Double.NaN, true, format);
        }

        String verdict(List<Double> values) {
            if (Double.isNaN(target) || values.isEmpty()) {
                return "";
            }
            double min = values.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
            double max = values.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
            double worst = atLeast ? min : max;
            double best = atLeast ? max : min;
            boolean worstMeets = atLeast ? worst >= target : worst <= target;
            boolean bestMeets = atLeast ? best >= target : best <= target;
            return worstMeets ? "MET" : bestMeets ? "tie" : "not met";
        }

        String targetText() {
            return Double.isNaN(target) ? "" : (atLeast ? "≥ " : "≤ ") + String.format(Locale.ROOT, format, target);
        }
    }

    private final Map<Metric, Map<String, List<Double>>> values = new LinkedHashMap<>();
    private final List<String> columns = new ArrayList<>();

    /** Adds one repetition's value. */
    void add(Metric metric, String column, double value) {
        if (!columns.contains(column)) {
            columns.add(column);
        }
        values.computeIfAbsent(metric, m -> new LinkedHashMap<>())
                .computeIfAbsent(column, c -> new ArrayList<>())
                .add(value);
    }

    /** Returns the values of one cell (empty if none). */
    List<Double> values(Metric metric, String column) {
        return values.getOrDefault(metric, Map.of()).getOrDefault(column, List.of());
    }

    /** Returns the rows added so far. */
    List<Metric> metrics() {
        return List.copyOf(values.keySet());
    }

    /** Returns the table in markdown; the verdict judges the first column. */
    String markdown() {
        StringBuilder out = new StringBuilder("| metric | target | verdict (" + columns.get(0) + ") |");
        StringBuilder rule = new StringBuilder("| --- | --- | --- |");
        for (String c : columns) {
            out.append(' ').append(c).append(" |");
            rule.append(" ---: |");
        }
        out.append('\n').append(rule).append('\n');
        for (Map.Entry<Metric, Map<String, List<Double>>> row : values.entrySet()) {
            Metric m = row.getKey();
            out.append("| ")
                    .append(m.label())
                    .append(", ")
                    .append(m.unit())
                    .append(" | ")
                    .append(m.targetText())
                    .append(" | ")
                    .append(m.verdict(row.getValue().getOrDefault(columns.get(0), List.of())))
                    .append(" |");
            for (String c : columns) {
                out.append(' ')
                        .append(cell(m, row.getValue().getOrDefault(c, List.of())))
                        .append(" |");
            }
            out.append('\n');
        }
        return out.toString();
    }

    private static String cell(Metric m, List<Double> v) {
        if (v.isEmpty()) {
            return "–";
        }
        double mean = v.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
        double min = v.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        double max = v.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        return String.format(Locale.ROOT, m.format() + " (" + m.format() + "–" + m.format() + ")", mean, min, max);
    }
}
