package dev.hourglass.bench;

import java.io.PrintStream;
import java.util.Locale;

/**
 * A progress bar on standard error: {@code [#####-----] 12/40 (29 left, 1:10 elapsed, ~3 min to go)
 * queue-heartbeat n=1e6 impl=...}. On a
 * terminal it redraws one line; otherwise (a log, CI) it prints one line per step.
 *
 * <p>Complexity: O(1) per step. Ordering: n/a. Thread-safety: one thread.
 */
final class Progress {

    private static final int WIDTH = 30;

    private final PrintStream out;
    private final int total;
    private final boolean terminal;
    private final long start = System.nanoTime();
    private int done;

    Progress(PrintStream out, int total, boolean terminal) {
        this.out = out;
        this.total = Math.max(1, total);
        this.terminal = terminal;
    }

    /**
     * Shows the step that starts now.
     *
     * @param label what runs
     */
    void starting(String label) {
        int filled = done * WIDTH / total;
        double seconds = (System.nanoTime() - start) / 1e9;
        String left = done == 0 ? "" : ", ~" + minutes(seconds / done * (total - done)) + " to go";
        String line = "[" + "#".repeat(filled) + "-".repeat(WIDTH - filled) + "] " + (done + 1) + "/" + total + " ("
                + (total - done) + " left, " + clock(seconds) + " elapsed" + left + ") " + label;
        if (terminal) {
            out.print("\r\033[K" + line);
        } else {
            out.println(line);
        }
        out.flush();
    }

    /**
     * Formats seconds as minutes and seconds.
     *
     * @param seconds the duration
     * @return e.g. "3:07"
     */
    static String clock(double seconds) {
        long whole = Math.round(seconds);
        return String.format(Locale.ROOT, "%d:%02d", whole / 60, whole % 60);
    }

    /**
     * Formats a duration for a person: seconds, minutes or hours.
     *
     * @param seconds the duration
     * @return e.g. "40 s", "6 min", "2.3 h"
     */
    static String minutes(double seconds) {
        if (seconds < 90) {
            return Math.round(seconds) + " s";
        }
        if (seconds < 5400) {
            return Math.round(seconds / 60) + " min";
        }
        return String.format(Locale.ROOT, "%.1f h", seconds / 3600);
    }

    /** Marks the current step done. */
    void done() {
        done++;
    }

    /** Ends the bar. */
    void finish() {
        String line = "[" + "#".repeat(WIDTH) + "] " + done + "/" + total + " done in "
                + clock((System.nanoTime() - start) / 1e9);
        out.print(terminal ? "\r\033[K" + line + "\n" : line + "\n");
        out.flush();
    }
}
