package dev.hourglass.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Runs {@link RedisBenchMain} small, end to end, with every contender against a real redis-server:
 * every timer of the fire workloads is delivered at least once and every figure is a number. It
 * asserts no speed: the machine running the tests may be busy.
 */
class RedisBenchSmokeTest {
    @Test
    void everyContenderRunsEveryWorkloadAndDeliversEveryTimer() throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        RedisBenchMain.Report report;
        try (PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8)) {
            report = RedisBenchMain.run(
                    RedisBenchMain.options(
                            "n=300",
                            "single=100",
                            "cpuRate=100",
                            "lateRate=200",
                            "seconds=1",
                            "delayMs=200",
                            "reps=1",
                            "warmup=false"),
                    out);
        }
        String text = printed.toString(StandardCharsets.UTF_8);
        System.out.println(text);

        assertThat(report.expected()).hasSize(BenchContender.all().size());
        report.expected().forEach((contender, scheduled) -> {
            assertThat(scheduled).as(contender).isEqualTo(300 + 100 + 200);
            assertThat(report.fired().get(contender)).as(contender).isEqualTo(scheduled);
            assertThat(report.deliveries().get(contender)).as(contender).isGreaterThanOrEqualTo(scheduled);
        });
        for (BenchTable.Metric m : report.table().metrics()) {
            for (BenchContender.Kind k : BenchContender.all()) {
                assertThat(report.table().values(m, k.label()))
                        .as("%s, %s", m.label(), k.label())
                        .hasSize(1)
                        .allSatisfy(v -> assertThat(v).isFinite().isNotNegative());
            }
        }
        assertThat(text).contains("| metric | target |", "load average at start", "redis: 7", "java: ");
    }
}
