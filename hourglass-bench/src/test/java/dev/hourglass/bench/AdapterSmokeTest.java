package dev.hourglass.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Collection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * The adapters (Netty's {@code Timer}, the {@code ScheduledExecutorService}) and the timer with the
 * builder's defaults are in no benchmark's default list (the shootout's are unchanged), so {@link
 * BenchmarkSmokeTest} does not reach them: this runs the benchmarks that measure them once with
 * each, as {@code hourglass-bench/scripts/adapters-run.sh} does.
 */
class AdapterSmokeTest {

    @ParameterizedTest
    @ValueSource(strings = {"HOURGLASS_NETTY_ADAPTER", "HOURGLASS_EXECUTOR"})
    void theRequestTimeoutAndHeartbeatBenchmarksRunTheAdapter(String impl) throws RunnerException {
        runsTwoBenchmarks(new OptionsBuilder()
                .include("DriverRequestTimeoutBenchmark|DriverHeartbeatBenchmark")
                .param("impl", impl)
                .param("n", "100")
                .param("k", "10")
                .warmupIterations(1)
                .warmupTime(TimeValue.milliseconds(50))
                .measurementTime(TimeValue.milliseconds(50)));
    }

    @Test
    void theLatenessBenchmarkRunsTheTimerWithTheDefaults() throws RunnerException {
        runsTwoBenchmarks(new OptionsBuilder()
                .include("DriverLatenessBenchmark")
                .param("impl", "HOURGLASS_DEFAULTS")
                .param("n", "100")
                .param("streamMillis", "50")
                .param("idleMillis", "50")
                .warmupIterations(0));
    }

    /** Runs the options in this JVM, one measurement each, and checks both benchmarks gave a score. */
    private static void runsTwoBenchmarks(ChainedOptionsBuilder options) throws RunnerException {
        System.setProperty("jmh.ignoreLock", "true");
        Collection<RunResult> results = new Runner(options.forks(0)
                        .measurementIterations(1)
                        .shouldFailOnError(true)
                        .verbosity(VerboseMode.SILENT)
                        .build())
                .run();
        assertThat(results).hasSize(2);
        for (RunResult result : results) {
            assertThat(result.getPrimaryResult().getScore()).isPositive();
        }
    }
}
