package dev.hourglass.bench;

import java.util.Locale;

/**
 * What the data let the report say about a ratio or a target, honestly: a ratio is a win (or a
 * loss) only when its whole 99.9% interval lies above (below) 1×, and a target is MET only when the
 * whole interval lies on its right side; both need scores from at least {@value
 * JmhSettings#FORKS_FOR_A_VERDICT} forks. Anything else is a tie, or NOT MET, with what limits it.
 *
 * <p>The interval of a ratio a / b is taken from JMH's 99.9% confidence intervals of both scores,
 * [a - ea, a + ea] and [b - eb, b + eb]: its ends are (a - ea) / (b + eb) and (a + ea) / (b - eb),
 * the extremes the two intervals allow (unbounded above when b's interval reaches 0). This is
 * conservative: both scores lie in their intervals together with probability at least 99.8%.
 *
 * <p>Complexity: O(1). Ordering: n/a. Thread-safety: immutable.
 *
 * @param word "win", "loss" or "tie" for a ratio; "MET" or "NOT MET" for a target
 * @param value the ratio or the score
 * @param low the interval's low end
 * @param high the interval's high end (may be infinite)
 * @param limit what keeps a tie or NOT MET from being decided, or why a MET or NOT MET holds;
 *     empty for a win or loss
 */
record Verdict(String word, double value, double low, double high, String limit) {

    /** A ratio whose interval lies above 1×. */
    static final String WIN = "win";
    /** A ratio whose interval lies below 1×. */
    static final String LOSS = "loss";
    /** A ratio whose interval includes 1×, or that is provisional. */
    static final String TIE = "tie";
    /** A target whose interval lies on its right side. */
    static final String MET = "MET";
    /** Every other target. */
    static final String NOT_MET = "NOT MET";

    /**
     * Compares our score with an anchor's: the ratio is the anchor's score over ours (time per
     * operation, lower is better), so above 1× we are faster.
     *
     * @param ours our measurement
     * @param anchor the anchor's measurement, from the same run
     * @return win, loss or tie
     */
    static Verdict compare(Measurement ours, Measurement anchor) {
        double[] interval = ratioInterval(anchor, ours);
        double ratio = anchor.score() / ours.score();
        String doubt = doubt(ours, anchor);
        if (doubt == null && interval[0] > 1) {
            return new Verdict(WIN, ratio, interval[0], interval[1], "");
        }
        if (doubt == null && interval[1] < 1) {
            return new Verdict(LOSS, ratio, interval[0], interval[1], "");
        }
        String limit = doubt != null ? doubt : "interval " + range(interval, "×") + " includes 1×";
        return new Verdict(TIE, ratio, interval[0], interval[1], limit);
    }

    /**
     * Judges a target of the form "ours is at least {@code needed} times faster than the anchor".
     *
     * @param ours our measurement
     * @param anchor the anchor's
     * @param needed the speed-up asked for
     * @return MET when the ratio's whole interval is at or above {@code needed}
     */
    static Verdict speedup(Measurement ours, Measurement anchor, double needed) {
        double[] interval = ratioInterval(anchor, ours);
        double ratio = anchor.score() / ours.score();
        String doubt = doubt(ours, anchor);
        String need = Format.ratio(needed);
        if (doubt == null && interval[0] >= needed) {
            return new Verdict(MET, ratio, interval[0], interval[1], "interval " + range(interval, "×") + " ≥ " + need);
        }
        String limit;
        if (doubt != null) {
            limit = doubt;
        } else if (interval[1] < needed) {
            limit = "missed: interval " + range(interval, "×") + " below " + need;
        } else {
            limit = "undecided: interval " + range(interval, "×") + " includes " + need;
        }
        return new Verdict(NOT_MET, ratio, interval[0], interval[1], limit);
    }

    /**
     * Judges a target of the form "our score is at most {@code bound}".
     *
     * @param ours our measurement
     * @param bound the most the score may be, in the workload's unit
     * @return MET when the score's whole interval is at or below the bound
     */
    static Verdict atMost(Measurement ours, double bound) {
        double[] interval = {ours.score() - ours.error(), ours.score() + ours.error()};
        String doubt = doubt(ours, ours);
        String limit = Format.number(bound);
        if (doubt == null && interval[1] <= bound) {
            return new Verdict(
                    MET, ours.score(), interval[0], interval[1], "interval " + range(interval, "") + " ≤ " + limit);
        }
        String why;
        if (doubt != null) {
            why = doubt;
        } else if (interval[0] > bound) {
            why = "missed: interval " + range(interval, "") + " above " + limit;
        } else {
            why = "undecided: interval " + range(interval, "") + " reaches above " + limit;
        }
        return new Verdict(NOT_MET, ours.score(), interval[0], interval[1], why);
    }

    /**
     * Tells whether the verdict is decided in our favour.
     *
     * @return true for a win or a MET
     */
    boolean favourable() {
        return word.equals(WIN) || word.equals(MET);
    }

    /**
     * Formats the ratio, its interval and the word, e.g. "1.52× [1.31–1.80×] win".
     *
     * @return the text
     */
    String ratioText() {
        return Format.ratio(value) + " [" + intervalText() + "] " + word;
    }

    /**
     * Formats the interval of a ratio, e.g. "1.31–1.80×".
     *
     * @return the text, "n/a" when unknown
     */
    String intervalText() {
        return range(new double[] {low, high}, "×");
    }

    /**
     * Returns the interval [a - ea, a + ea] / [b - eb, b + eb] of a / b.
     *
     * @param a the numerator's measurement
     * @param b the denominator's measurement
     * @return {low, high}; NaN when an error is unknown
     */
    static double[] ratioInterval(Measurement a, Measurement b) {
        double aLow = Math.max(0, a.score() - a.error());
        double aHigh = a.score() + a.error();
        double bLow = b.score() - b.error();
        double bHigh = b.score() + b.error();
        double high = bLow <= 0 ? Double.POSITIVE_INFINITY : aHigh / bLow;
        return new double[] {aLow / bHigh, high};
    }

    private static String doubt(Measurement ours, Measurement other) {
        if (!(ours.error() >= 0) || !(other.error() >= 0)) {
            return "no error estimate (too few samples)";
        }
        int forks = Math.min(ours.forks(), other.forks());
        if (forks < JmhSettings.FORKS_FOR_A_VERDICT) {
            return "provisional: " + forks + (forks == 1 ? " fork" : " forks") + ", a verdict needs "
                    + JmhSettings.FORKS_FOR_A_VERDICT;
        }
        return null;
    }

    private static String range(double[] interval, String unit) {
        if (Double.isNaN(interval[0]) || Double.isNaN(interval[1])) {
            return "n/a";
        }
        String high = Double.isInfinite(interval[1]) ? "∞" : number(interval[1]);
        return number(interval[0]) + "–" + high + unit;
    }

    private static String number(double value) {
        return Math.abs(value) < 10 ? String.format(Locale.ROOT, "%.2f", value) : Format.number(value);
    }
}
