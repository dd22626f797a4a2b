package dev.hourglass.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class JmhResultsTest {

    private static Measurement find(List<Measurement> ms, String workload, String impl, long n) {
        return ms.stream()
                .filter(m -> m.workload().id().equals(workload) && m.impl().equals(impl) && m.n() == n)
                .findFirst()
                .orElseThrow();
    }

    @Test
    void readsScoresErrorsForksAndTheCpuOfBothThreads() {
        List<Measurement> ms = JmhResults.read(Fixtures.text(Fixtures.THREE_FORKS), Workloads.all());

        assertThat(ms).hasSize(37);
        Measurement heartbeat = find(ms, "driver-heartbeat", "HOURGLASS_HIERARCHICAL_WHEEL", 10_000);
        assertThat(heartbeat.score()).isEqualTo(1360.0);
        assertThat(heartbeat.error()).isEqualTo(40.0);
        assertThat(heartbeat.forks()).isEqualTo(3);
        assertThat(heartbeat.params()).containsEntry("k", "10");
        // each fork's five iterations report a fifth of the figure each (see driver.WorkerCpu)
        assertThat(heartbeat.driverCpu()).isCloseTo(85, within(1e-9));
        assertThat(heartbeat.callerCpu()).isCloseTo(1200, within(1e-9));
        Measurement queue = find(ms, "queue-heartbeat", "AGRONA", 1_000_000);
        assertThat(queue.driverCpu()).isNaN();
    }

    @Test
    void dividesPerTimerWorkloadsByTheirTimers() {
        List<Measurement> ms = JmhResults.read(Fixtures.text(Fixtures.THREE_FORKS), Workloads.all());

        Measurement fire = find(ms, "queue-fire-one-tick", "HIERARCHICAL_WHEEL", 1_000_000);
        assertThat(fire.score()).isCloseTo(15.6, within(1e-9));
        assertThat(fire.error()).isCloseTo(57.9, within(1e-9));
    }

    @Test
    void readsJmhsNanErrorAndASingleFork() {
        List<Measurement> ms = JmhResults.read(Fixtures.text(Fixtures.ONE_FORK), Workloads.all());

        Measurement driver = find(ms, "driver-request", "HOURGLASS_HIERARCHICAL_WHEEL", 10_000);
        assertThat(driver.error()).isNaN();
        assertThat(driver.forks()).isEqualTo(1);
    }

    @Test
    void aBenchmarkThatIsNoWorkloadIsAnErrorNotDropped() {
        String json = "[{\"benchmark\": \"x.Y.z\", \"params\": {}, \"primaryMetric\": {\"score\": 1,"
                + " \"scoreError\": 0, \"rawData\": [[1]]}}]";

        assertThatThrownBy(() -> JmhResults.read(json, Workloads.all()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("x.Y.z");
    }

    @Test
    void jsonRoundTripsQuotedText() {
        String text = "a \"quoted\" \\ line\nand a tab\t";

        assertThat(Json.parse(Json.quote(text))).isEqualTo(text);
        assertThatThrownBy(() -> Json.parse("[1, 2")).hasMessageContaining("offset 5");
    }
}
