package dev.hourglass.bench;

import java.io.PrintStream;

/**
 * A progress bar on standard error: {@code [#####-----] 12/40 queue-heartbeat n=1e6 impl=...}. On a
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
        long seconds = (System.nanoTime() - start) / 1_000_000_000L;
        String line = "[" + "#".repeat(filled) + "-".repeat(WIDTH - filled) + "] " + (done + 1) + "/" + total + " "
                + String.format("%d:%02d ", seconds / 60, seconds % 60) + label;
        if (terminal) {
            out.print("\r\033[K" + line);
        } else {
            out.println(line);
        }
        out.flush();
    }

    /** Marks the current step done. */
    void done() {
        done++;
    }

    /** Ends the bar. */
    void finish() {
        long seconds = (System.nanoTime() - start) / 1_000_000_000L;
        String line = "[" + "#".repeat(WIDTH) + "] " + done + "/" + total + " done in "
                + String.format("%d:%02d", seconds / 60, seconds % 60);
        out.print(terminal ? "\r\033[K" + line + "\n" : line + "\n");
        out.flush();
    }
}
