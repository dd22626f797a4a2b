package dev.hourglass.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.BenchmarkException;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Runs every benchmark method of the module once, in this JVM, with one short warm-up and one short
 * measurement iteration: each numeric parameter at its smallest value but at most {@link
 * #SMOKE_CAP} (timers, keys, milliseconds: small enough for CI), every other parameter (the {@code
 * impl} names) at all its values. It checks that each combination produces a result, not how
 * fast it is. A run that fails only because the machine was too busy to set an iteration up in time
 * ({@link MachineTooBusyException}, as on a shared CI machine) is run again, up to {@value
 * #ATTEMPTS} times in all.
 */
class BenchmarkSmokeTest {

    /** The largest value a numeric parameter takes here. */
    private static final long SMOKE_CAP = 100;

    /** Runs of one benchmark method when each fails with {@link MachineTooBusyException}. */
    private static final int ATTEMPTS = 3;

    @Test
    void everyBenchmarkProducesAResultForEveryImpl() throws RunnerException {
        // measuring is not the point here, so another JMH run on the machine must not stop this one
        System.setProperty("jmh.ignoreLock", "true");
        Set<BenchmarkListEntry> entries = BenchmarkList.defaultList()
                .getAll(OutputFormatFactory.createFormatInstance(System.out, VerboseMode.SILENT), List.of());
        assertThat(entries).as("benchmarks in META-INF/BenchmarkList").isNotEmpty();
        Set<String> methods = new TreeSet<>();
        entries.forEach(entry -> methods.add(entry.getUsername()));
        List<String> failures = new ArrayList<>();
        for (String method : methods) {
            BenchmarkListEntry entry = entries.stream()
                    .filter(e -> e.getUsername().equals(method))
                    .findFirst()
                    .orElseThrow();
            Map<String, String[]> params = smallest(entry);
            int expected = 1;
            ChainedOptionsBuilder options = new OptionsBuilder()
                    .include("^" + Pattern.quote(method) + "$")
                    .forks(0)
                    .warmupIterations(1)
                    .warmupTime(TimeValue.milliseconds(50))
                    .measurementIterations(1)
                    .measurementTime(TimeValue.milliseconds(50))
                    .shouldFailOnError(true)
                    .verbosity(VerboseMode.SILENT);
            for (Map.Entry<String, String[]> param : params.entrySet()) {
                options.param(param.getKey(), param.getValue());
                expected *= param.getValue().length;
            }
            Collection<RunResult> results = null;
            for (int attempt = 1; results == null; attempt++) {
                try {
                    results = new Runner(options.build()).run();
                } catch (RunnerException e) {
                    if (attempt < ATTEMPTS && tooBusy(e)) {
                        System.out.println(method + ", attempt " + attempt + " of " + ATTEMPTS + ": " + causes(e));
                        continue;
                    }
                    failures.add(method + ": " + causes(e));
                    break;
                }
            }
            if (results == null) {
                continue;
            }
            if (results.size() != expected) {
                failures.add(method + ": " + results.size() + " results for " + expected + " parameter combinations");
            }
            for (RunResult result : results) {
                if (!(result.getPrimaryResult().getScore() >= 0)) {
                    failures.add(method + " " + result.getParams().getParamsKeys() + ": no score");
                }
            }
        }
        assertThat(failures).as("benchmarks without a result").isEmpty();
    }

    /** JMH keeps a benchmark's exception as a suppressed one of its own; a retry must see it there. */
    @Test
    void aRunThatFailedOnlyForABusyMachineIsToldApartInsideJmhsWrapping() {
        RunnerException busy = new RunnerException(
                "Benchmark caught the exception",
                new BenchmarkException(
                        "Benchmark error during the run",
                        List.of(new MachineTooBusyException("scheduling 100 timers", 140, 61, 100))));
        RunnerException broken = new RunnerException(
                "Benchmark caught the exception",
                new BenchmarkException("Benchmark error during the run", List.of(new IllegalStateException("bug"))));
        assertThat(tooBusy(busy)).isTrue();
        assertThat(tooBusy(broken)).isFalse();
        assertThat(causes(busy)).contains("leaving 61 ms before the first deadline where 100 ms are needed");
    }

    /** Whether {@code e}, its causes or what they suppressed is a {@link MachineTooBusyException}. */
    private static boolean tooBusy(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof MachineTooBusyException) {
                return true;
            }
            for (Throwable suppressed : t.getSuppressed()) {
                if (tooBusy(suppressed)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * What {@code e} says, with its causes and what it and they suppressed: JMH's own message says
     * only that it caught an exception, which it keeps as a suppressed one of its cause.
     */
    private static String causes(Throwable e) {
        StringBuilder messages = new StringBuilder(e.toString());
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t != e) {
                messages.append(" <- ").append(t);
            }
            for (Throwable suppressed : t.getSuppressed()) {
                messages.append(" <- ").append(suppressed);
            }
        }
        return messages.toString();
    }

    /** Numeric parameters at their smallest value; the others (impl names) at all their values. */
    private static Map<String, String[]> smallest(BenchmarkListEntry entry) {
        Map<String, String[]> chosen = new TreeMap<>();
        if (!entry.getParams().hasValue()) {
            return chosen;
        }
        entry.getParams().get().forEach((key, values) -> {
            boolean numeric = values.length > 0;
            for (String value : values) {
                numeric &= value.matches("-?\\d+");
            }
            if (numeric) {
                long min = Long.MAX_VALUE;
                for (String value : values) {
                    min = Math.min(min, Long.parseLong(value));
                }
                chosen.put(key, new String[] {Long.toString(Math.min(min, SMOKE_CAP))});
            } else {
                chosen.put(key, values);
            }
        });
        return chosen;
    }
}
