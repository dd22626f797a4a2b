package dev.hourglass.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PublisherTest {

    @TempDir
    Path root;

    @Test
    void publishingCopiesTheRunIntoDocsAndSplicesTheReadme() throws IOException {
        Path run = root.resolve("runs/r1");
        RunFiles.write(run, Fixtures.results(Fixtures.THREE_FORKS), Fixtures.run(3));
        Files.createDirectories(root.resolve("docs/charts"));
        Files.writeString(root.resolve("docs/charts/old-chart.png"), "stale");
        Files.writeString(
                root.resolve("README.md"),
                "# Title\n\n## Measured\n\n" + ReadmeTable.BEGIN + "\nold table\n" + ReadmeTable.END + "\n\n## Next\n");

        Publisher.publish(run, root);

        String readme = Files.readString(root.resolve("README.md"));
        assertThat(readme)
                .startsWith("# Title\n\n## Measured\n\n" + ReadmeTable.BEGIN + "\n")
                .contains(Files.readString(run.resolve(RunFiles.README_TABLE)))
                .doesNotContain("old table")
                .endsWith(ReadmeTable.END + "\n\n## Next\n");
        assertThat(root.resolve("docs/shootout.md")).hasSameTextualContentAs(run.resolve(RunFiles.REPORT));
        assertThat(root.resolve("docs/decision-guide.md")).hasSameTextualContentAs(run.resolve(RunFiles.GUIDE));
        assertThat(root.resolve("docs/charts/queue-heartbeat-k10.png")).isRegularFile();
        assertThat(root.resolve("docs/charts/old-chart.png")).doesNotExist();
    }

    @Test
    void aReadmeWithoutTheMarkersIsLeftAlone() throws IOException {
        Path run = root.resolve("runs/r1");
        RunFiles.write(run, Fixtures.results(Fixtures.ONE_FORK), Fixtures.run(1));
        Files.writeString(root.resolve("README.md"), "# no markers\n");

        assertThatThrownBy(() -> Publisher.publish(run, root))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(ReadmeTable.BEGIN);
        assertThat(Files.readString(root.resolve("README.md"))).isEqualTo("# no markers\n");
        assertThat(root.resolve("docs")).doesNotExist();
    }

    @Test
    void aFolderThatIsNoRunIsRefused() {
        assertThatThrownBy(() -> Publisher.publish(root, root)).hasMessageContaining("not a shootout run");
    }
}
