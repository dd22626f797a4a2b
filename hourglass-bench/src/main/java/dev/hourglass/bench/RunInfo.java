package dev.hourglass.bench;

/**
 * Which run a report, table or guide comes from: every generated file names it, so a number can
 * always be traced to its run.
 *
 * <p>Complexity: O(1). Ordering: n/a. Thread-safety: immutable.
 *
 * @param date when the run started, e.g. "2026-11-25 21:04 UTC"
 * @param machine the machine it ran on
 * @param mode "quick" or "full"
 * @param jmh the JMH settings, described
 * @param forks the forks per parameter combination
 * @param command the command line that ran
 */
record RunInfo(String date, MachineInfo machine, String mode, String jmh, int forks, String command) {

    /**
     * Tells whether the run's verdicts are provisional.
     *
     * @return true with fewer than {@link JmhSettings#FORKS_FOR_A_VERDICT} forks
     */
    boolean provisional() {
        return forks < JmhSettings.FORKS_FOR_A_VERDICT;
    }

    /**
     * Names the run in one line of Markdown: date, machine, JDK, command.
     *
     * @return e.g. "2026-11-25 21:04 UTC on Intel Xeon (2 cores, 23.5 GiB), OpenJDK 17.0.15, `./hourglass
     *     shootout --full` (full mode: 3 forks, ...)"
     */
    String identity() {
        return date + " on " + machine.cpu() + " (" + machine.cores() + " cores, " + machine.memory() + "), "
                + machine.jdk() + ", `" + command + "` (" + mode + " mode: " + jmh + ")";
    }

    /**
     * Says, when the run is provisional, why its verdicts are.
     *
     * @return a Markdown quote ending with a blank line, or "" for a run with enough forks
     */
    String provisionalNote() {
        if (!provisional()) {
            return "";
        }
        return "> **Provisional**: this run has " + forks + (forks == 1 ? " fork" : " forks")
                + " per measurement; a win, a loss or a MET needs " + JmhSettings.FORKS_FOR_A_VERDICT
                + " (`./hourglass shootout --full`), so every verdict below reads tie or NOT MET.\n\n";
    }
}
