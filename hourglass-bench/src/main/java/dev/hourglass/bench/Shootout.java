package dev.hourglass.bench;

import dev.hourglass.bench.footprint.Footprint;
import dev.hourglass.bench.footprint.FootprintRow;
import dev.hourglass.bench.queue.BenchQueues;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.openjdk.jmh.runner.BenchmarkListEntry;

/**
 * {@code ./hourglass shootout}: runs every workload of {@link Workloads} with JMH (quick by default,
 * {@code --full} for publication) and the footprint measurement, showing its progress, and writes a
 * new run folder ({@code runs/<date>-<machine>/}) with the report, CSV, JSON, charts, the README's
 * table and the decision guide, all from the same results. {@code docs/} and the README change only
 * with {@code --publish}. {@code --help} lists the options ({@link ShootoutOptions}).
 *
 * <p>Complexity: one JMH run per parameter combination. Ordering: workloads in order, then
 * footprint. Thread-safety: a command-line program.
 */
public final class Shootout {

    private static final String FOOTPRINT = "footprint";

    private Shootout() {}

    /**
     * Runs the shootout.
     *
     * @param args the options; {@code --help} lists them
     * @throws IOException if a file cannot be written
     */
    public static void main(String[] args) throws IOException {
        int status;
        try {
            status = run(args);
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            System.err.println("see ./hourglass shootout --help");
            status = 2;
        }
        if (status != 0) {
            System.exit(status);
        }
    }

    /**
     * Runs the shootout without exiting, for tests.
     *
     * @param args the options
     * @return the exit status: 0 when done
     * @throws IOException if a file cannot be written
     * @throws IllegalArgumentException if an option is wrong or a filter matches nothing
     */
    static int run(String... args) throws IOException {
        ShootoutOptions options = ShootoutOptions.parse(args);
        if (options.help()) {
            System.out.print(ShootoutOptions.usage());
            return 0;
        }
        if (options.publishRun() != null) {
            List<Path> written = Publisher.publish(options.publishRun(), Path.of(""));
            System.out.println("Published " + options.publishRun() + ": " + written.size() + " files in docs/ and"
                    + " the table in README.md");
            return 0;
        }
        System.setProperty("java.awt.headless", "true");
        JmhSettings settings = options.settings();
        Map<Workload, String> unavailable = new LinkedHashMap<>();
        Map<JmhPlan.Run, BenchmarkListEntry> runs = plan(settings, unavailable);
        List<String> footprintImpls = new ArrayList<>();
        if (options.footprint()) {
            for (String impl : Footprint.implNames()) {
                footprintImpls.add(FOOTPRINT + " impl=" + impl);
            }
        }
        if (options.only() != null) {
            runs.keySet().removeIf(run -> !options.only().matcher(run.label()).find());
            footprintImpls.removeIf(label -> !options.only().matcher(label).find());
            unavailable.keySet().removeIf(w -> !options.only().matcher(w.id()).find());
            if (runs.isEmpty() && footprintImpls.isEmpty()) {
                List<String> ids = new ArrayList<>();
                Workloads.all().forEach(w -> ids.add(w.id()));
                ids.add(FOOTPRINT);
                throw new IllegalArgumentException("--only " + options.only() + " matches no run; the workloads are "
                        + String.join(", ", ids)
                        + " (a run's label also names its parameters, e.g. impl=NETTY_HASHED_WHEEL"
                        + " or n=1e6)");
            }
        }
        double estimate = 0;
        for (Map.Entry<JmhPlan.Run, BenchmarkListEntry> run : runs.entrySet()) {
            estimate += JmhPlan.estimateSeconds(run.getValue(), run.getKey(), settings);
        }
        estimate += footprintImpls.size() * (settings.full() ? 8.0 : 3.0);
        String summary = "Hourglass shootout, " + settings.label() + " mode (" + settings.describe() + "): "
                + runs.size() + " JMH runs and " + footprintImpls.size() + " footprint measurements, roughly "
                + Progress.minutes(estimate) + " on an idle machine";
        if (options.dryRun()) {
            System.out.println(summary);
            runs.forEach((run, entry) -> System.out.println("  " + run.label()
                    + String.format(Locale.ROOT, "  ~%.0f s", JmhPlan.estimateSeconds(entry, run, settings))));
            footprintImpls.forEach(label -> System.out.println("  " + label));
            return 0;
        }
        Path out = options.out() != null ? options.out() : defaultFolder();
        requireNewOrEmpty(out);
        Files.createDirectories(out.resolve("jmh"));
        Path log = out.resolve("jmh.log");
        System.err.println(summary + ". Writing " + out + "; JMH's output goes to " + log);
        MachineInfo machine = MachineInfo.read();
        String date = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'"));

        Progress progress = new Progress(System.err, runs.size() + footprintImpls.size(), System.console() != null);
        JmhExecutor executor = new JmhExecutor(settings, log);
        List<Measurement> measurements = new ArrayList<>();
        List<Path> jsons = new ArrayList<>();
        int index = 0;
        for (JmhPlan.Run run : runs.keySet()) {
            progress.starting(run.label());
            Optional<String> notRun = notRun(run);
            if (notRun.isPresent()) {
                measurements.add(Measurement.missing(run.workload(), run.params(), notRun.get()));
            } else {
                Path json = out.resolve("jmh").resolve(String.format(Locale.ROOT, "%03d.json", ++index));
                measurements.add(executor.execute(run, json));
                if (Files.isRegularFile(json)) {
                    jsons.add(json);
                }
            }
            progress.done();
        }
        List<FootprintRow> rows = new ArrayList<>();
        for (String label : footprintImpls) {
            progress.starting(label);
            String impl = label.substring(label.indexOf('=') + 1);
            FootprintRunner.measure(impl, settings.footprintTimers()).ifPresent(rows::add);
            progress.done();
        }
        progress.finish();
        Files.writeString(out.resolve("jmh-results.json"), merge(jsons));
        StringBuilder tsv = new StringBuilder();
        rows.forEach(row -> tsv.append(row.toLine()).append('\n'));
        Files.writeString(out.resolve("footprint.tsv"), tsv);

        Results results = new Results(measurements, rows, unavailable);
        String command = "./hourglass shootout" + (args.length == 0 ? "" : " " + String.join(" ", args));
        RunInfo info = new RunInfo(date, machine, settings.label(), settings.describe(), settings.forks(), command);
        RunFiles.write(out, results, info);

        StringBuilder console = new StringBuilder("\nTargets\n\n").append(Report.targets(results));
        if (info.provisional()) {
            console.append("\n").append(info.provisionalNote());
        }
        System.out.print(console);
        System.out.println("Wrote " + out.resolve(RunFiles.REPORT) + ", results.csv, results.json, "
                + RunFiles.README_TABLE + ", " + RunFiles.GUIDE + " and charts/ in " + out);
        if (options.publish()) {
            List<Path> written = Publisher.publish(out, Path.of(""));
            System.out.println("Published into docs/ and README.md: " + written.size() + " files");
        } else {
            System.out.println("docs/ and README.md are unchanged; publish this run with ./hourglass shootout"
                    + " --publish-run " + out);
        }
        return 0;
    }

    private static Map<JmhPlan.Run, BenchmarkListEntry> plan(JmhSettings settings, Map<Workload, String> unavailable) {
        Map<JmhPlan.Run, BenchmarkListEntry> runs = new LinkedHashMap<>();
        for (Workload workload : Workloads.all()) {
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
            for (JmhPlan.Run run : JmhPlan.runs(workload, entry.get(), settings.full())) {
                runs.put(run, entry.get());
            }
        }
        return runs;
    }

    /** Concatenates JMH's result arrays into one array, which JMH's tools and {@link JmhResults} read. */
    static String merge(List<Path> jsons) throws IOException {
        List<String> bodies = new ArrayList<>();
        for (Path json : jsons) {
            String text = Files.readString(json).trim();
            if (text.startsWith("[") && text.endsWith("]")) {
                String body = text.substring(1, text.length() - 1).trim();
                if (!body.isEmpty()) {
                    bodies.add(body);
                }
            }
        }
        return "[\n" + String.join(",\n", bodies) + "\n]\n";
    }

    private static Path defaultFolder() {
        String date = ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd-HHmm"));
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            host = "machine";
        }
        String name = date + "-" + host.replaceAll("[^A-Za-z0-9.-]", "_");
        Path folder = Path.of("runs", name);
        for (int i = 2; Files.exists(folder); i++) {
            folder = Path.of("runs", name + "-" + i);
        }
        return folder;
    }

    private static void requireNewOrEmpty(Path out) throws IOException {
        if (!Files.exists(out)) {
            return;
        }
        if (!Files.isDirectory(out)) {
            throw new IllegalArgumentException("--out " + out + " is a file, not a folder");
        }
        try (Stream<Path> entries = Files.list(out)) {
            if (entries.findAny().isPresent()) {
                throw new IllegalArgumentException("--out " + out + " is not empty: a run never overwrites another");
            }
        }
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
}
