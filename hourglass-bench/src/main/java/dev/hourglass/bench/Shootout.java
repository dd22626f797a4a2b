package dev.hourglass.bench;

import dev.hourglass.bench.footprint.Footprint;
import dev.hourglass.bench.footprint.FootprintRow;
import dev.hourglass.bench.queue.BenchQueues;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.openjdk.jmh.runner.BenchmarkListEntry;

/**
 * {@code ./hourglass shootout}: runs every workload of {@link Workloads} with JMH (quick by default,
 * {@code --full} for the long runs) and the footprint measurement, prints the tables, and writes
 * {@code docs/shootout.md} and PNG charts in {@code docs/charts/}.
 *
 * <p>Complexity: one JMH run per parameter combination. Ordering: workloads in order, then
 * footprint. Thread-safety: a command-line program.
 */
public final class Shootout {

    private Shootout() {}

    /**
     * Runs the shootout.
     *
     * @param args {@code [--full] [--out DIR] [--only REGEX] [--no-footprint] [--preliminary]}
     * @throws IOException if the report or a chart cannot be written
     */
    public static void main(String[] args) throws IOException {
        RunMode mode = RunMode.QUICK;
        Path out = Path.of("docs");
        Pattern only = null;
        boolean footprint = true;
        boolean preliminary = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--full":
                    mode = RunMode.FULL;
                    break;
                case "--quick":
                    mode = RunMode.QUICK;
                    break;
                case "--out":
                    out = Path.of(value(args, ++i, "--out"));
                    break;
                case "--only":
                    only = Pattern.compile(value(args, ++i, "--only"));
                    break;
                case "--no-footprint":
                    footprint = false;
                    break;
                case "--preliminary":
                    preliminary = true;
                    break;
                case "--help":
                case "-h":
                    usage();
                    return;
                default:
                    System.err.println("unknown option: " + args[i]);
                    usage();
                    System.exit(2);
                    return;
            }
        }
        System.setProperty("java.awt.headless", "true");
        MachineInfo machine = MachineInfo.read();
        Path log = Files.isDirectory(Path.of("hourglass-bench", "target"))
                ? Path.of("hourglass-bench", "target", "shootout-jmh.log")
                : Files.createTempFile("shootout-jmh", ".log");
        Files.deleteIfExists(log);

        List<JmhPlan.Run> runs = new ArrayList<>();
        Map<Workload, String> unavailable = new LinkedHashMap<>();
        for (Workload workload : Workloads.all()) {
            if (only != null && !only.matcher(workload.id()).find()) {
                continue;
            }
            Optional<String> missing = missing(workload);
            if (missing.isPresent()) {
                unavailable.put(workload, missing.get());
                continue;
            }
            Optional<BenchmarkListEntry> entry = JmhPlan.entry(workload);
            if (entry.isEmpty()) {
                unavailable.put(
                        workload, "not available: no benchmark " + workload.benchmarkClass() + "." + workload.method());
                continue;
            }
            runs.addAll(JmhPlan.runs(workload, entry.get(), mode == RunMode.FULL));
        }
        List<String> footprintImpls = footprint ? Footprint.implNames() : List.of();

        System.err.println("Hourglass shootout, " + mode.label() + " mode: " + runs.size() + " JMH runs and "
                + footprintImpls.size() + " footprint measurements; JMH's output goes to " + log);
        Progress progress = new Progress(System.err, runs.size() + footprintImpls.size(), System.console() != null);
        JmhExecutor executor = new JmhExecutor(mode, log);
        List<Measurement> measurements = new ArrayList<>();
        for (JmhPlan.Run run : runs) {
            progress.starting(run.label());
            Optional<String> notRun = notRun(run);
            measurements.add(
                    notRun.isPresent()
                            ? new Measurement(run.workload(), run.params(), Double.NaN, Double.NaN, notRun.get())
                            : executor.execute(run));
            progress.done();
        }
        List<FootprintRow> rows = new ArrayList<>();
        for (String impl : footprintImpls) {
            progress.starting("footprint impl=" + impl);
            FootprintRunner.measure(impl, mode.footprintTimers()).ifPresent(rows::add);
            progress.done();
        }
        progress.finish();

        Results results = new Results(measurements, rows, unavailable);
        List<Map.Entry<String, String>> charts = Charts.write(results, out.resolve("charts"));
        String command = "./hourglass shootout" + (args.length == 0 ? "" : " " + String.join(" ", args));
        Files.createDirectories(out);
        Path report = out.resolve("shootout.md");
        Files.writeString(report, Report.markdown(results, machine, mode, command, charts, preliminary));

        StringBuilder console = new StringBuilder("\nTargets\n\n").append(Report.targets(results));
        console.append("\nQueue level (single-threaded structures, simulated clock)\n");
        Report.level(console, results, Workload.Level.QUEUE, List.of());
        console.append("Driver level (thread-safe timers)\n");
        Report.level(console, results, Workload.Level.DRIVER, List.of());
        System.out.print(console);
        System.out.println("Wrote " + report + " and " + charts.size() + " charts in " + out.resolve("charts"));
    }

    private static Optional<String> missing(Workload workload) {
        try {
            Class.forName(workload.benchmarkClass(), false, Shootout.class.getClassLoader());
            return Optional.empty();
        } catch (ClassNotFoundException e) {
            return Optional.of("not available: class " + workload.benchmarkClass() + " is not in this build");
        }
    }

    private static Optional<String> notRun(JmhPlan.Run run) {
        String impl = run.params().get("impl");
        String n = run.params().get("n");
        if (impl == null || n == null) {
            return Optional.empty();
        }
        String simpleName = run.workload()
                .benchmarkClass()
                .substring(run.workload().benchmarkClass().lastIndexOf('.') + 1);
        return BenchQueues.notRunReason(simpleName, impl, Integer.parseInt(n));
    }

    private static String value(String[] args, int index, String option) {
        if (index >= args.length) {
            System.err.println(option + " needs a value");
            System.exit(2);
        }
        return args[index];
    }

    private static void usage() {
        System.out.println("usage: ./hourglass shootout [--full] [--out DIR] [--only REGEX] [--no-footprint]"
                + " [--preliminary]");
        System.out.println("  --full          JMH's long runs (3 forks, seconds per iteration, all parameters)");
        System.out.println("  --out DIR       where shootout.md and charts/ go (default docs)");
        System.out.println("  --only REGEX    only the workloads whose id matches, e.g. queue-heartbeat");
        System.out.println("  --no-footprint  skip the footprint measurement");
        System.out.println("  --preliminary   mark the report as measured on a busy machine");
    }
}
