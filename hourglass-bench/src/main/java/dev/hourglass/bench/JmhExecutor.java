package dev.hourglass.bench;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Runs one {@link JmhPlan.Run} with JMH's Runner API, keeping JMH's own output out of the terminal
 * (it goes to a log file), keeping JMH's JSON result file, and turning it into a {@link
 * Measurement}.
 *
 * <p>Complexity: one JMH run. Ordering: n/a. Thread-safety: one run at a time.
 */
final class JmhExecutor {

    private final JmhSettings settings;
    private final Path log;

    JmhExecutor(JmhSettings settings, Path log) {
        this.settings = settings;
        this.log = log;
    }

    /**
     * Runs the benchmark at the run's parameters.
     *
     * @param run what to run
     * @param json where JMH writes its JSON result
     * @return the measurement, or a failed one with JMH's first error line
     */
    Measurement execute(JmhPlan.Run run, Path json) {
        ChainedOptionsBuilder options = new OptionsBuilder()
                .include(run.workload().includePattern())
                .shouldFailOnError(true)
                .resultFormat(ResultFormatType.JSON)
                .result(json.toString());
        settings.apply(options);
        for (Map.Entry<String, String> param : run.params().entrySet()) {
            options.param(param.getKey(), param.getValue());
        }
        String threads = run.params().get("threads");
        if (threads != null) {
            // the contention benchmark's producers are JMH's threads
            options.threads(Integer.parseInt(threads));
        }
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        Collection<RunResult> results;
        try (PrintStream out = new PrintStream(captured, true, StandardCharsets.UTF_8)) {
            Runner runner =
                    new Runner(options.build(), OutputFormatFactory.createFormatInstance(out, VerboseMode.NORMAL));
            results = runner.run();
        } catch (RunnerException e) {
            results = List.of();
        }
        String output = captured.toString(StandardCharsets.UTF_8);
        appendLog(run, output);
        if (results.isEmpty() || !Files.isRegularFile(json)) {
            return Measurement.missing(run.workload(), run.params(), "failed: " + firstError(output));
        }
        try {
            List<Measurement> read = JmhResults.read(Files.readString(json), List.of(run.workload()));
            if (read.size() != 1) {
                return Measurement.missing(
                        run.workload(), run.params(), "failed: " + read.size() + " results in " + json);
            }
            return read.get(0);
        } catch (IOException | IllegalArgumentException e) {
            return Measurement.missing(run.workload(), run.params(), "failed: cannot read " + json + ": " + e);
        }
    }

    static String firstError(String output) {
        for (String line : output.split("\n")) {
            String trimmed = line.trim();
            if (trimmed.contains("Exception") || trimmed.contains("Error:")) {
                return trimmed.length() > 200 ? trimmed.substring(0, 200) + "..." : trimmed;
            }
        }
        return "no result (see the JMH log)";
    }

    private void appendLog(JmhPlan.Run run, String output) {
        try {
            Files.writeString(
                    log,
                    "=== " + run.label() + "\n" + output + "\n",
                    StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            System.err.println("cannot write the JMH log " + log + ": " + e);
        }
    }
}
