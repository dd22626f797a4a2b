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
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Runs one {@link JmhPlan.Run} with JMH's Runner API, keeping JMH's own output out of the terminal
 * (it goes to a log file) and turning the result into a {@link Measurement}.
 *
 * <p>Complexity: one JMH run. Ordering: n/a. Thread-safety: one run at a time.
 */
final class JmhExecutor {

    private final RunMode mode;
    private final Path log;

    JmhExecutor(RunMode mode, Path log) {
        this.mode = mode;
        this.log = log;
    }

    /**
     * Runs the benchmark at the run's parameters.
     *
     * @param run what to run
     * @return the measurement, or a failed one with JMH's first error line
     */
    Measurement execute(JmhPlan.Run run) {
        ChainedOptionsBuilder options =
                new OptionsBuilder().include(run.workload().includePattern()).shouldFailOnError(true);
        mode.apply(options);
        for (Map.Entry<String, String> param : run.params().entrySet()) {
            options.param(param.getKey(), param.getValue());
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
        if (results.isEmpty()) {
            return new Measurement(
                    run.workload(), run.params(), Double.NaN, Double.NaN, "failed: " + firstError(output));
        }
        Result<?> primary = results.iterator().next().getPrimaryResult();
        double divisor =
                run.workload().perTimer() ? Double.parseDouble(run.params().get("n")) : 1;
        double error = primary.getScoreError();
        return new Measurement(run.workload(), run.params(), primary.getScore() / divisor, error / divisor, null);
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
