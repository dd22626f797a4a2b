package dev.hourglass.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.hourglass.bench.footprint.FootprintRow;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ShootoutReportTest {

    private static Workload workload(String id) {
        return Workloads.all().stream()
                .filter(w -> w.id().equals(id))
                .findFirst()
                .orElseThrow();
    }

    private static Measurement measured(String id, String impl, long n, double score) {
        return Measurement.of(workload(id), Map.of("n", Long.toString(n), "k", "10", "impl", impl), score, 1, 3);
    }

    @Test
    void growthIsJudgedAgainstTheComplexityTable() {
        List<Measurement> ms = new ArrayList<>();
        ms.add(measured("queue-heartbeat", "HIERARCHICAL_WHEEL", 10_000, 20));
        ms.add(measured("queue-heartbeat", "HIERARCHICAL_WHEEL", 1_000_000, 40));
        ms.add(measured("queue-heartbeat", "BINARY_HEAP", 10_000, 20));
        ms.add(measured("queue-heartbeat", "BINARY_HEAP", 1_000_000, 400));
        ms.add(measured("queue-heartbeat", "SORTED_LIST", 10_000, 20));
        ms.add(measured("queue-heartbeat", "SORTED_LIST", 1_000_000, 21));
        Results results = new Results(ms, List.of(), Map.of());

        List<GrowthCheck.Line> lines = GrowthCheck.lines(results);

        assertThat(lines)
                .extracting(GrowthCheck.Line::impl, GrowthCheck.Line::growth, GrowthCheck.Line::verdict)
                .containsExactly(
                        tuple("HIERARCHICAL_WHEEL", 2.0, "as predicted"),
                        tuple("BINARY_HEAP", 20.0, "grows faster than predicted"),
                        tuple("SORTED_LIST", 1.05, "grows slower than predicted"));
    }

    @Test
    void targetsTakeTheBestHourglassQueueAgainstTheAnchorOfTheSameRun() {
        // queue-request: 32 ± 1 ns against a bound of 30 ns
        List<Measurement> ms = new ArrayList<>();
        ms.add(measured("queue-heartbeat", "HIERARCHICAL_WHEEL", 1_000_000, 20));
        ms.add(measured("queue-heartbeat", "BINARY_HEAP", 1_000_000, 80));
        ms.add(measured("queue-heartbeat", "AGRONA", 1_000_000, 40));
        ms.add(measured("queue-request", "HIERARCHICAL_WHEEL", 1_000_000, 32));
        List<FootprintRow> footprint = List.of(
                new FootprintRow("HIERARCHICAL_WHEEL", 100, 0, 40.0, 40.2, 0, ""),
                new FootprintRow("SIMPLE_WHEEL", 100, 0, 39.9, 69, 0, ""),
                new FootprintRow("BINARY_HEAP", 100, 0, 45, 45, 0, ""));
        Results results = new Results(ms, footprint, Map.of());

        List<Targets.Line> lines = Targets.lines(results);

        assertThat(lines.get(0).status()).isEqualTo("MET");
        assertThat(lines.get(0).measured()).contains("best HIERARCHICAL_WHEEL").contains("2.00× AGRONA");
        assertThat(lines.get(1).status()).isEqualTo("NOT MET");
        assertThat(lines.get(1).measured()).contains("missed: interval 31.0–33.0 above 30.0");
        assertThat(lines.get(2).status()).isEqualTo("NOT MEASURED");
        assertThat(lines.get(3).status()).isEqualTo("MET");
        assertThat(lines.get(4).status()).isEqualTo("NOT MEASURED");
    }

    @Test
    void tablesShowRatiosToTheAnchorAndNameWhatWasNotRun() {
        List<Measurement> ms = new ArrayList<>();
        ms.add(measured("queue-fire-one-tick", "HIERARCHICAL_WHEEL", 1_000_000, 10));
        ms.add(measured("queue-fire-one-tick", "AGRONA", 1_000_000, 15));
        ms.add(Measurement.missing(
                workload("queue-fire-one-tick"),
                Map.of("n", "1000000", "impl", "UNSORTED_LIST"),
                "not run (O(n)): each fired timer scans the whole list"));

        String scores = Tables.scores(workload("queue-fire-one-tick"), ms);
        String verdicts = Tables.verdicts(workload("queue-fire-one-tick"), ms);

        assertThat(scores)
                .contains("| HIERARCHICAL_WHEEL | 10.0 ± 1.00 |")
                .contains("| AGRONA | 15.0 ± 1.00 |")
                .contains("| UNSORTED_LIST | not run (O(n)) |")
                .contains("UNSORTED_LIST at n=1e6: not run (O(n)): each fired timer scans the whole list");
        assertThat(verdicts)
                .contains("| HIERARCHICAL_WHEEL | vs AGRONA 1.50× [1.27–1.78×] win |")
                .contains("| UNSORTED_LIST | n/a |")
                .doesNotContain("| AGRONA |");
    }

    @Test
    void aFootprintRowSurvivesItsLine() {
        FootprintRow row = new FootprintRow("AGRONA", 1000, 8_388_624, 0.5, 8389.1, 0.25, "longs");
        assertThat(FootprintRow.parse(row.toLine())).isEqualTo(row);
    }
}
