package dev.hourglass.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.runner.BenchmarkListEntry;

/** The command line of {@code ./hourglass shootout}: options, filters, modes and publishing. */
class ShootoutCommandTest {

    @TempDir
    Path dir;

    @Test
    void aFilterThatMatchesNothingIsAnErrorNamingItAndListingTheWorkloads() {
        assertThatThrownBy(() -> Shootout.run(
                        "--only", "nomatch", "--out", dir.resolve("run").toString()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--only nomatch matches no run")
                .hasMessageContaining("queue-heartbeat")
                .hasMessageContaining("queue-fire-spread")
                .hasMessageContaining("driver-contention")
                .hasMessageContaining("footprint");
        assertThat(dir.resolve("run")).doesNotExist();
    }

    @Test
    void helpDescribesEveryOptionAndEveryDescribedOptionParses() {
        String usage = ShootoutOptions.usage();

        for (String[] option : ShootoutOptions.OPTIONS) {
            String[] words = option[0].split(",? ");
            assertThat(usage).contains(option[0]);
            String name = words[0];
            String[] args =
                    words.length > 1 && !words[1].startsWith("-") ? new String[] {name, "1"} : new String[] {name};
            if (name.equals("--publish")) {
                continue; // parses alone too, checked below with --only
            }
            assertThat(ShootoutOptions.parse(args)).as(name).isNotNull();
        }
        assertThat(ShootoutOptions.parse("--publish").publish()).isTrue();
    }

    @Test
    void badOptionsNameTheOptionAndTheValue() {
        assertThatThrownBy(() -> ShootoutOptions.parse("--forks", "zero"))
                .hasMessage("--forks needs a positive whole number, not zero");
        assertThatThrownBy(() -> ShootoutOptions.parse("--frobnicate")).hasMessage("unknown option: --frobnicate");
        assertThatThrownBy(() -> ShootoutOptions.parse("--only")).hasMessage("--only needs a value");
        assertThatThrownBy(() -> ShootoutOptions.parse("--only", "("))
                .hasMessageStartingWith("--only ( is not a regular expression");
    }

    @Test
    void docsAreNeverTheOutputFolderAndAPartialRunIsNeverPublished() {
        assertThatThrownBy(() -> ShootoutOptions.parse("--out", "docs"))
                .hasMessage("--out docs: docs/ is written only by --publish");
        assertThatThrownBy(() -> ShootoutOptions.parse("--publish", "--only", "queue"))
                .hasMessageContaining("a published report must cover every workload");
    }

    @Test
    void aRunNeverWritesIntoAFolderThatHoldsSomething() throws IOException {
        Files.writeString(dir.resolve("shootout.md"), "an earlier run");

        assertThatThrownBy(() -> Shootout.run("--only", "queue-fire-spread n=1e4 impl=AGRONA", "--out", dir.toString()))
                .hasMessageContaining("is not empty");
        assertThat(Files.readString(dir.resolve("shootout.md"))).isEqualTo("an earlier run");
    }

    @Test
    void aTinyQuickRunWritesAWholeRunFolderAndLeavesDocsAlone() throws IOException {
        // measuring is not the point here, so another JMH run on the machine must not stop this one
        System.setProperty("jmh.ignoreLock", "true");
        Path docs = Path.of("..", "docs", "shootout.md");
        String before = Files.readString(docs);
        Path out = dir.resolve("run");

        int status = Shootout.run(
                "--only",
                "queue-fire-spread n=1e4 impl=(HIERARCHICAL_WHEEL|AGRONA)$",
                "--iterations",
                "1",
                "--iteration-ms",
                "10",
                "--out",
                out.toString());

        assertThat(status).isZero();
        for (String name : List.of(
                "shootout.md",
                "README-table.md",
                "decision-guide.md",
                "results.csv",
                "results.json",
                "jmh-results.json",
                "charts/queue-fire-spread.png")) {
            assertThat(out.resolve(name)).as(name).isRegularFile();
        }
        List<Measurement> measured =
                JmhResults.read(Files.readString(out.resolve("jmh-results.json")), Workloads.all());
        assertThat(measured).extracting(Measurement::impl).containsExactly("HIERARCHICAL_WHEEL", "AGRONA");
        assertThat(measured).allSatisfy(m -> assertThat(m.score()).isPositive());
        assertThat(Files.readString(out.resolve("shootout.md"))).contains("**Provisional**");
        assertThat(Files.readString(docs)).isEqualTo(before);
    }

    @Test
    void theReadmeHasTheMarkersThatPublishingSplicesBetween() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"));

        assertThat(readme.indexOf(ReadmeTable.BEGIN)).isPositive().isLessThan(readme.indexOf(ReadmeTable.END));
    }

    @Test
    void quickModeRunsEveryWorkloadIncludingTheSpreadFiring() {
        JmhSettings quick = ShootoutOptions.parse().settings();

        assertThat(quick.full()).isFalse();
        assertThat(quick.provisional()).isTrue();
        for (Workload workload : Workloads.all()) {
            BenchmarkListEntry entry = JmhPlan.entry(workload).orElseThrow();
            assertThat(JmhPlan.runs(workload, entry, false)).as(workload.id()).isNotEmpty();
        }
    }

    @Test
    void fullModeHasThreeForksAFixedPreTouchedHeapAndADecadePerSize() {
        JmhSettings full = ShootoutOptions.parse("--full").settings();

        assertThat(full.forks()).isGreaterThanOrEqualTo(JmhSettings.FORKS_FOR_A_VERDICT);
        assertThat(full.provisional()).isFalse();
        String xms = full.jvmArgs().stream()
                .filter(a -> a.startsWith("-Xms"))
                .findFirst()
                .orElseThrow();
        String xmx = full.jvmArgs().stream()
                .filter(a -> a.startsWith("-Xmx"))
                .findFirst()
                .orElseThrow();
        assertThat(xms.substring(4)).isEqualTo(xmx.substring(4));
        assertThat(full.jvmArgs()).contains("-XX:+AlwaysPreTouch");
        for (Workload workload : Workloads.all()) {
            List<String> sizes = workload.params(true).get(workload.sweep());
            if (workload.sweep().equals("n") && workload.level() == Workload.Level.QUEUE) {
                assertThat(sizes).as(workload.id()).containsExactly("1000", "10000", "100000", "1000000");
            }
        }
        assertThat(ShootoutOptions.parse("--full", "--forks", "1").settings().provisional())
                .isTrue();
    }
}
