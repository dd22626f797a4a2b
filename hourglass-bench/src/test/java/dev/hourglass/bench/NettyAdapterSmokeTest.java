package dev.hourglass.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Collection;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * The Netty adapter is in no benchmark's default list (the shootout's are unchanged), so {@link
 * BenchmarkSmokeTest} does not reach it: this runs the request-timeout and heartbeat benchmarks
 * once with {@code impl=HOURGLASS_NETTY_ADAPTER}, as the command that measures it does.
 */
class NettyAdapterSmokeTest {

    @Test
    void theRequestTimeoutAndHeartbeatBenchmarksRunTheNettyAdapter() throws RunnerException {
        System.setProperty("jmh.ignoreLock", "true");
        Collection<RunResult> results = new Runner(new OptionsBuilder()
                        .include("DriverRequestTimeoutBenchmark|DriverHeartbeatBenchmark")
                        .param("impl", "HOURGLASS_NETTY_ADAPTER")
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
