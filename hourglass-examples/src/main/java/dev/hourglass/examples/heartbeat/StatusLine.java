package dev.hourglass.examples.heartbeat;

import java.io.PrintStream;

/**
 * Prints a status that changes every second, plus log lines, to one stream: on a terminal the
 * status is one line redrawn in place with log lines scrolling above it; otherwise every status and
 * every log line is a line of its own.
 *
 * <p>Complexity: O(length) per call. Ordering: output in call order.
 *
 * <p>Thread-safety: safe from any thread (one lock), so the server's loop thread can log while the
 * main thread updates the status.
 */
final class StatusLine {

    private static final String CLEAR_LINE = "\r\033[K";

    private final PrintStream out;
    private final boolean terminal;
    private String status = "";

    StatusLine(PrintStream out, boolean terminal) {
        this.out = out;
        this.terminal = terminal;
    }

    /**
     * Prints a log line above the status.
     *
     * @param line the text, without a newline
     */
    synchronized void log(String line) {
        if (terminal) {
            out.print(CLEAR_LINE + line + "\n" + status);
            out.flush();
        } else {
            out.println(line);
        }
    }

    /**
     * Replaces the status.
     *
     * @param text the new status, without a newline
     */
    synchronized void update(String text) {
        status = text;
        if (terminal) {
            out.print(CLEAR_LINE + text);
            out.flush();
        } else {
            out.println(text);
        }
    }

    /** Ends the redrawn line, so that what follows starts on a line of its own. */
    synchronized void finish() {
        if (terminal && !status.isEmpty()) {
            out.println();
        }
        status = "";
    }
}
