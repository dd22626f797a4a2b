package dev.hourglass.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Generates a run folder from a fixed JMH result file and checks that its files agree. */
class GeneratedFilesTest {

    @TempDir
    Path dir;

    @Test
    void everyFileOfTheRunIsWrittenAndNamesTheRun() throws IOException {
        Results results = Fixtures.results(Fixtures.THREE_FORKS);
        RunInfo run = Fixtures.run(3);

        RunFiles.write(dir, results, run);

        for (String name :
                List.of(RunFiles.REPORT, RunFiles.GUIDE, RunFiles.README_TABLE, "results.csv", "results.json")) {
            String text = Files.readString(dir.resolve(name));
            assertThat(text).as(name).isNotBlank();
            if (name.endsWith(".md")) {
                assertThat(text)
                        .as(name)
                        .contains("2026-11-25 21:00 UTC")
                        .contains("Intel(R) Xeon(R) Processor (2 cores, 23.5 GiB)")
                        .contains("OpenJDK 64-Bit Server VM 17.0.15")
                        .contains("`./hourglass shootout --full`")
                        .doesNotContain("Provisional");
            }
        }
        assertThat(Files.readAllLines(dir.resolve("results.csv")))
                .hasSize(1 + results.measurements().size());
        Object json = Json.parse(Files.readString(dir.resolve("results.json")));
        assertThat(json).isInstanceOf(Map.class);
        assertThat((List<?>) ((Map<?, ?>) json).get("measurements"))
                .hasSize(results.measurements().size());
        assertThat(dir.resolve("charts/queue-heartbeat-k10.png")).isRegularFile();
        assertThat(dir.resolve("charts/driver-heartbeat-k10-cpu.png")).isRegularFile();
    }

    @Test
    void theReadmeTableGivesEachAnchorItsVerdictAndTheDriversCpu() {
        String table = ReadmeTable.markdown(Fixtures.results(Fixtures.THREE_FORKS), Fixtures.run(3));

        // queue level: the wheel is slower than Agrona at 1e6 (198 ± 10 against 175 ± 8)
        assertThat(table).contains("| Heartbeat (queue level), k=10, n=1e6 | HIERARCHICAL_WHEEL 198 ± 10.0");
        assertThat(table).contains("0.88× [0.80–0.97×] **loss**");
        // request timeouts: 98 ± 5 against Agrona's 332 ± 20
        assertThat(table).contains("3.39× [3.03–3.78×] **win**");
        // driver level: the caller's time beside the driver thread's CPU, and both threads' CPU
        assertThat(table).contains("HOURGLASS_HIERARCHICAL_WHEEL 971 ± 40.0 ns per operation<br>driver CPU 85.0 ns");
        assertThat(table).contains("CPU of both threads");
        // the JDK's error is too wide to call
        assertThat(table).containsPattern("\\[[0-9.]+–[0-9.]+×\\] tie");
        assertThat(table).contains("expiry: best wheel ≤ 20 ns per fired timer (1e6 due in one tick): **NOT MET**");
    }

    @Test
    void aRunWithFewerThanThreeForksSaysItsVerdictsAreProvisional() {
        Results results = Fixtures.results(Fixtures.ONE_FORK);
        RunInfo run = Fixtures.run(1);

        String table = ReadmeTable.markdown(results, run);
        String report = Report.markdown(results, run, List.of());
        String guide = DecisionGuide.markdown(results, run);

        for (String text : List.of(table, report, guide)) {
            assertThat(text).contains("**Provisional**: this run has 1 fork");
        }
        // 98 ± 5 against 332 ± 20 would be a win with three forks
        assertThat(table).contains("3.39× [3.03–3.78×] tie").doesNotContain("] **win**");
        assertThat(Targets.lines(results))
                .filteredOn(line -> line.target().startsWith("expiry"))
                .singleElement()
                .satisfies(line -> {
                    assertThat(line.status()).isEqualTo("NOT MET");
                    assertThat(line.measured()).contains("provisional: 1 fork");
                });
    }

    @Test
    void theDecisionGuideRecommendsTheFastestOfItsOwnRanking() {
        Results results = Fixtures.results(Fixtures.THREE_FORKS);

        List<DecisionGuide.Answer> answers = DecisionGuide.answers(results);

        assertThat(answers).isNotEmpty();
        for (DecisionGuide.Answer answer : answers) {
            Measurement fastest = answer.ranking().stream()
                    .filter(m -> !m.workload().anchors().contains(m.impl()))
                    .findFirst()
                    .orElseThrow();
            assertThat(answer.use()).as(answer.question()).isEqualTo(fastest.impl());
            assertThat(answer.best().score()).isEqualTo(fastest.score());
        }
        String guide = DecisionGuide.markdown(results, Fixtures.run(3));
        // at 1e6 the 4-ary heap (555) is faster than the red-black tree (700): it must rank above it
        int heap = guide.indexOf("| QUATERNARY_HEAP | 555");
        int tree = guide.indexOf("| RED_BLACK_TREE | 700");
        assertThat(heap).isPositive().isLessThan(tree);
        // request timeouts: the simple wheel (100 ± 6) cannot be told apart from the hierarchical one (98 ± 5)
        assertThat(guide)
                .contains("| HIERARCHICAL_WHEEL | O(1) schedule, cancel and reschedule, no range limit | 98.0 ± 5.00"
                        + " ns per pair (cancel + schedule) | SIMPLE_WHEEL |");
    }

    @Test
    void theReportShowsTheDriverThreadsCpuBesideTheCallersTime() {
        String report = Report.markdown(Fixtures.results(Fixtures.THREE_FORKS), Fixtures.run(3), List.of());

        assertThat(report).contains("| impl | n=1e4 time | n=1e4 driver CPU | n=1e6 time |" + " n=1e6 driver CPU |");
        assertThat(report).contains("| NETTY_HASHED_WHEEL | 1,948 ± 60.0 | 391 | 1,391 ± 60.0 | 391 |");
        assertThat(report).contains("| impl | threads=1 time | threads=1 driver CPU |");
    }
}
