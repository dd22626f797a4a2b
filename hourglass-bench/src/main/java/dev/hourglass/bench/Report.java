package dev.hourglass.bench;

import dev.hourglass.bench.footprint.FootprintRow;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes the shootout's Markdown: machine, targets, queue-level and driver-level tables in separate
 * sections, footprint, and the complexity check.
 *
 * <p>Complexity: O(measurements). Ordering: workloads in {@link Workloads} order. Thread-safety: one
 * thread.
 */
final class Report {

    private Report() {}

    /**
     * Builds the whole report.
     *
     * @param results the results
     * @param run which run
     * @param charts the chart files, relative to the report
     * @return the Markdown text
     */
    static String markdown(Results results, RunInfo run, List<Charts.Chart> charts) {
        StringBuilder md = new StringBuilder();
        md.append("# Hourglass shootout\n\n");
        md.append("Run: ").append(run.identity()).append(".\n\n");
        md.append(run.provisionalNote());
        MachineInfo machine = run.machine();
        md.append("## Machine\n\n| CPU | cores | memory | JDK | OS | load average at start |\n")
                .append("| --- | --- | --- | --- | --- | --- |\n")
                .append("| ")
                .append(machine.cpu())
                .append(" | ")
                .append(machine.cores())
                .append(" | ")
                .append(machine.memory())
                .append(" | ")
                .append(machine.jdk())
                .append(" | ")
                .append(machine.os())
                .append(" | ")
                .append(machine.load())
                .append(" |\n\n");
        md.append("## How to read\n\n")
                .append("Scores are JMH averages, lower is better, with JMH's 99.9% confidence half-width after ±"
                        + " (n/a with too few samples). `vs X` is X's score divided by the row's, both from this run:"
                        + " above 1× the row is faster than X. In brackets, the ratio's interval from both 99.9%"
                        + " intervals (low: X's low end over the row's high end; high: the other way round). The"
                        + " ratio is a **win** only when that whole interval lies above 1×, a **loss** only when it"
                        + " lies below, and only with scores from at least " + JmhSettings.FORKS_FOR_A_VERDICT
                        + " forks; anything else is a tie. A target is MET on the same terms. Driver-level tables"
                        + " show, beside the time (the caller's time per operation; for fire-heavy the wall time per"
                        + " fired timer), the CPU the timer's own threads spent per operation (JMH's"
                        + " `workerCpuNanos`), and a second chart draws it. Queue-level and driver-level figures are in separate sections"
                        + " and must not be compared with each other: a single-threaded queue under a simulated"
                        + " clock does a fraction of the work of a thread-safe timer with its own thread."
                        + " \"not run (O(n))\" marks combinations skipped because an O(n) step repeated n times"
                        + " would take hours at n = 1e6.\n\n");
        md.append("## Targets\n\n").append(targets(results)).append('\n');
        md.append("## Queue level: single-threaded structures, simulated clock\n\n")
                .append("Every structure gets the same tick (2^20 ns, about 1.05 ms) as Agrona's"
                        + " DeadlineTimerWheel, the single-threaded anchor; Agrona has no reschedule, so it cancels"
                        + " and schedules.\n\n");
        level(md, results, Workload.Level.QUEUE, charts);
        md.append("## Driver level: thread-safe timers\n\n")
                .append("Hourglass's Timer drivers beside Netty's HashedWheelTimer, Kafka's SystemTimer and the"
                        + " JDK's ScheduledThreadPoolExecutor: each call crosses threads.\n\n");
        level(md, results, Workload.Level.DRIVER, charts);
        md.append("## Footprint\n\n").append(footprint(results.footprint())).append('\n');
        md.append("## Complexity check\n\n").append(growth(results)).append('\n');
        md.append("## Files\n\nThe run's own folder (`runs/<date>-<host>/`) holds `results.csv` and `results.json`"
                + " with every figure above, `jmh-results.json`, JMH's own result file for every run, and `jmh.log`,"
                + " JMH's output; publishing copies this report, the decision guide, the README's table and the"
                + " charts, not those files. Publish a run into `docs/` and the README with `./hourglass shootout"
                + " --publish` (a published run should be a full one).\n");
        return md.toString();
    }

    /**
     * Returns the heading of one workload's group.
     *
     * @param workload the workload
     * @param others its parameters other than impl and the swept one
     * @return e.g. "Heartbeat (queue level), k=10"
     */
    static String title(Workload workload, Map<String, String> others) {
        String params = Format.params(others);
        return workload.title() + (params.isEmpty() ? "" : ", " + params);
    }

    /**
     * Formats the targets as a table.
     *
     * @param results the results
     * @return the Markdown table
     */
    static String targets(Results results) {
        StringBuilder md = new StringBuilder("| target | status | measured |\n| --- | --- | --- |\n");
        for (Targets.Line line : Targets.lines(results)) {
            md.append("| ")
                    .append(line.target())
                    .append(" | **")
                    .append(line.status())
                    .append("** | ")
                    .append(line.measured())
                    .append(" |\n");
        }
        return md.toString();
    }

    /**
     * Formats the tables of one level's workloads.
     *
     * @param md where to append
     * @param results the results
     * @param level the level
     * @param charts chart files with their titles
     */
    static void level(StringBuilder md, Results results, Workload.Level level, List<Charts.Chart> charts) {
        boolean any = false;
        for (Workload workload : Workloads.all()) {
            if (workload.level() != level) {
                continue;
            }
            String missing = results.unavailable().get(workload);
            if (missing != null) {
                md.append("- ")
                        .append(workload.title())
                        .append(": ")
                        .append(missing)
                        .append('\n');
                continue;
            }
            for (Map.Entry<Map<String, String>, List<Measurement>> group :
                    results.groups(workload).entrySet()) {
                any = true;
                String title = title(workload, group.getKey());
                md.append("\n### ")
                        .append(title)
                        .append("\n\n")
                        .append(workload.description())
                        .append(" Unit: ")
                        .append(workload.unit())
                        .append(".\n\n")
                        .append(Tables.scores(workload, group.getValue()))
                        .append('\n')
                        .append(Tables.verdicts(workload, group.getValue()));
                for (Charts.Chart chart : charts) {
                    if (chart.title().equals(title)) {
                        md.append("\n![")
                                .append(title)
                                .append(": ")
                                .append(chart.caption())
                                .append("](")
                                .append(chart.file())
                                .append(")\n");
                    }
                }
            }
        }
        if (!any) {
            md.append("\nNo ").append(level.name().toLowerCase(Locale.ROOT)).append("-level results in this run.\n");
        }
        md.append('\n');
    }

    private static String footprint(List<FootprintRow> rows) {
        if (rows.isEmpty()) {
            return "No footprint measured in this run.\n";
        }
        StringBuilder md = new StringBuilder("Bytes of heap retained, measured with ")
                .append(String.format(Locale.ROOT, "%,d", rows.get(0).timers()))
                .append(" timers whose delays spread evenly over 10 to 40 s, each implementation in a fresh JVM"
                        + " with the serial collector: used heap after `System.gc()` once the structure is empty,"
                        + " with the timers pending, and after cancelling them all while the"
                        + " implementation's own thread (if any) is held inside a task so it cannot clean up; the"
                        + " whole sequence runs twice and the second is reported. The caller's handle array"
                        + " exists before the first reading and every timer shares one task or payload, so"
                        + " neither counts (Kafka needs one TimerTask per timer, which counts). *Fixed* is the"
                        + " empty structure, measured with JOL's GraphLayout where it can be (not through a thread or JDK internals);"
                        + " *per pending* excludes it; *with fixed* spreads it over the timers;"
                        + " *per cancelled* is what a cancelled timer keeps until the implementation's next"
                        + " tick or purge.\n\n")
                .append("| impl | fixed | per pending | with fixed | per cancelled, still retained | holds |\n")
                .append("| --- | ---: | ---: | ---: | ---: | --- |\n");
        for (FootprintRow row : rows) {
            md.append("| ")
                    .append(row.impl())
                    .append(" | ")
                    .append(row.fixedBytes() < 0 ? "n/a" : String.format(Locale.ROOT, "%,d B", row.fixedBytes()))
                    .append(" | ")
                    .append(Format.number(row.bytesPerPending()))
                    .append(" B | ")
                    .append(
                            Double.isNaN(row.bytesPerPendingWithFixed())
                                    ? "n/a"
                                    : Format.number(row.bytesPerPendingWithFixed()) + " B")
                    .append(" | ")
                    .append(Format.number(row.bytesPerCancelled()))
                    .append(" B | ")
                    .append(row.note())
                    .append(" |\n");
        }
        return md.toString();
    }

    private static String growth(Results results) {
        List<GrowthCheck.Line> lines = GrowthCheck.lines(results);
        if (lines.isEmpty()) {
            return "Needs the queue-level heartbeat and request-timeout results.\n";
        }
        StringBuilder md = new StringBuilder("How much each cost grows when N grows 100-fold (1e4 → 1e6), against"
                        + " the complexity table: O(1) predicts about 1×, O(log n) about 1.5×, O(n) about 100×."
                        + " The working set leaves the CPU caches on the way, so the accepted ranges are wide: O(1)"
                        + " up to 3×, O(log n) 1× to 6×, O(n) and O(n / slots) from 10×. The scores include the"
                        + " polls every tick, which is what makes the unsorted list's O(n) next-deadline scan"
                        + " show.\n\n")
                .append("| workload | impl | operation | table says | predicted | measured growth | verdict |\n")
                .append("| --- | --- | --- | --- | ---: | ---: | --- |\n");
        for (GrowthCheck.Line line : lines) {
            md.append("| ")
                    .append(line.workload())
                    .append(line.group().isEmpty() ? "" : ", " + line.group())
                    .append(" | ")
                    .append(line.impl())
                    .append(" | ")
                    .append(line.operation())
                    .append(" | ")
                    .append(line.complexity().label)
                    .append(" | ")
                    .append(Format.ratio(line.complexity().predicted))
                    .append(" | ")
                    .append(Format.ratio(line.growth()))
                    .append(" | ")
                    .append(line.verdict())
                    .append(" |\n");
        }
        return md.toString();
    }
}
