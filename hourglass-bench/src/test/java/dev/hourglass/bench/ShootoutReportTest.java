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
        return new Measurement(workload(id), Map.of("n", Long.toString(n), "k", "10", "impl", impl), score, 1, null);
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
        List<Measurement> ms = new ArrayList<>();
        ms.add(measured("queue-heartbeat", "HIERARCHICAL_WHEEL", 1_000_000, 20));
        ms.add(measured("queue-heartbeat", "BINARY_HEAP", 1_000_000, 80));
        ms.add(measured("queue-heartbeat", "AGRONA", 1_000_000, 40));
        ms.add(measured("queue-request", "HIERARCHICAL_WHEEL", 1_000_000, 31));
        List<FootprintRow> footprint = List.of(
                new FootprintRow("HIERARCHICAL_WHEEL", 100, 0, 40.0, 40.2, 0, ""),
                new FootprintRow("SIMPLE_WHEEL", 100, 0, 39.9, 69, 0, ""),
                new FootprintRow("BINARY_HEAP", 100, 0, 45, 45, 0, ""));
        Results results = new Results(ms, footprint, Map.of());

        List<Targets.Line> lines = Targets.lines(results);

        assertThat(lines.get(0).status()).isEqualTo("MET");
        assertThat(lines.get(0).measured()).contains("best HIERARCHICAL_WHEEL").contains("2.00× AGRONA");
        assertThat(lines.get(1).status()).isEqualTo("MISSED");
        assertThat(lines.get(2).status()).isEqualTo("NOT MEASURED");
        assertThat(lines.get(3).status()).isEqualTo("MET");
        assertThat(lines.get(4).status()).isEqualTo("NOT MEASURED");
    }

    @Test
    void tablesShowRatiosToTheAnchorAndNameWhatWasNotRun() {
        List<Measurement> ms = new ArrayList<>();
        ms.add(measured("queue-fire-one-tick", "HIERARCHICAL_WHEEL", 1_000_000, 10));
        ms.add(measured("queue-fire-one-tick", "AGRONA", 1_000_000, 15));
        ms.add(new Measurement(
                workload("queue-fire-one-tick"),
                Map.of("n", "1000000", "impl", "UNSORTED_LIST"),
                Double.NaN,
                Double.NaN,
                "not run (O(n)): each fired timer scans the whole list"));

        String table = Report.table(workload("queue-fire-one-tick"), ms);

        assertThat(table)
                .contains("| HIERARCHICAL_WHEEL | 10.0 ± 1.00 | 1.50× |")
                .contains("| AGRONA | 15.0 ± 1.00 | 1.00× |")
                .contains("| UNSORTED_LIST | not run (O(n)) | n/a |")
                .contains("UNSORTED_LIST at n=1000000: not run (O(n)): each fired timer scans the whole list");
    }

    @Test
    void aFootprintRowSurvivesItsLine() {
        FootprintRow row = new FootprintRow("AGRONA", 1000, 8_388_624, 0.5, 8389.1, 0.25, "longs");
        assertThat(FootprintRow.parse(row.toLine())).isEqualTo(row);
    }
}
