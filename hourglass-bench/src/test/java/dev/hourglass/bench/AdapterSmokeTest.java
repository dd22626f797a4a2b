package dev.hourglass.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Collection;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * The adapters (Netty's {@code Timer}, the {@code ScheduledExecutorService}) are in no benchmark's
 * default list (the shootout's are unchanged), so {@link BenchmarkSmokeTest} does not reach them:
 * this runs the request-timeout and heartbeat benchmarks once with each, as the command that
 * measures them does.
 */
class AdapterSmokeTest {

    @ParameterizedTest
    @ValueSource(strings = {"HOURGLASS_NETTY_ADAPTER", "HOURGLASS_EXECUTOR"})
    void theRequestTimeoutAndHeartbeatBenchmarksRunTheAdapter(String impl) throws RunnerException {
        System.setProperty("jmh.ignoreLock", "true");
        Collection<RunResult> results = new Runner(new OptionsBuilder()
                        .include("DriverRequestTimeoutBenchmark|DriverHeartbeatBenchmark")
                        .param("impl", impl)
                        .param("n", "100")
                        .param("k", "10")
                        .forks(0)
                        .warmupIterations(1)
                        .warmupTime(TimeValue.milliseconds(50))
                        .measurementIterations(1)
                        .measurementTime(TimeValue.milliseconds(50))
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
