package dev.hourglass.bench;

import java.util.Locale;
import java.util.Map;

/**
 * Number formatting shared by the report and the console.
 *
 * <p>Complexity: O(1). Ordering: n/a. Thread-safety: stateless.
 */
final class Format {

    private Format() {}

    /**
     * Formats a score with three significant digits or one decimal.
     *
     * @param value the value
     * @return e.g. "12.3", "1234", "n/a" for NaN
     */
    static String number(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return "n/a";
        }
        if (Math.abs(value) >= 100) {
            return String.format(Locale.ROOT, "%,.0f", value);
        }
        if (Math.abs(value) >= 10) {
            return String.format(Locale.ROOT, "%.1f", value);
        }
        return String.format(Locale.ROOT, "%.2f", value);
    }

    /**
     * Formats a score with its error.
     *
     * @param m a measurement
     * @return e.g. "12.3 ± 0.4", or the reason it has no score
     */
    static String score(Measurement m) {
        if (!m.ok()) {
            return m.status().startsWith("not run") ? "not run (O(n))" : "failed";
        }
        return number(m.score()) + " ± " + number(m.error());
    }

    /**
     * Formats a ratio.
     *
     * @param ratio the ratio
     * @return e.g. "1.52×"
     */
    static String ratio(double ratio) {
        return Double.isNaN(ratio) ? "n/a" : String.format(Locale.ROOT, "%.2f×", ratio);
    }

    /**
     * Formats the parameters of a group, e.g. "k=10".
     *
     * @param others parameters other than impl and n
     * @return the text, empty if none
     */
    static String params(Map<String, String> others) {
        StringBuilder text = new StringBuilder();
        others.forEach((key, value) -> {
            if (text.length() > 0) {
                text.append(", ");
            }
            text.append(key).append('=').append(JmhPlan.shortNumber(value));
        });
        return text.toString();
    }
}
