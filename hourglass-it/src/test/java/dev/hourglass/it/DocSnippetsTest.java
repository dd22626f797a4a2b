package dev.hourglass.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every {@code ```java} block of README.md and docs/*.md, read when the test runs, compiles against
 * the published modules and runs to completion within a minute, wrapped with its preamble from
 * {@code src/test/snippets/} ({@code README.md.2.txt} for README.md's second block; see {@link
 * SnippetPreamble} for the format). A block without a preamble gets only the common imports.
 */
class DocSnippetsTest {

    private static final Path ROOT = Root.path();
    private static final Path PREAMBLES = ROOT.resolve("hourglass-it/src/test/snippets");
    private static final Duration LIMIT = Duration.ofSeconds(60);

    @TempDir
    Path work;

    @TestFactory
    Stream<DynamicTest> everyJavaSnippetOfTheDocsCompilesAndRuns() {
        List<DocSnippet> snippets = DocSnippet.readAll(ROOT);
        assertThat(snippets).as("java blocks of README.md").anyMatch(s -> s.file()
                .equals("README.md"));
        return snippets.stream().map(snippet -> dynamicTest(snippet.where(), () -> check(snippet)));
    }

    private void check(DocSnippet snippet) throws Exception {
        Path file = preambleFile(snippet);
        SnippetPreamble preamble = Files.exists(file) ? SnippetPreamble.read(file) : SnippetPreamble.NONE;
        SnippetRunner runner = new SnippetRunner(Files.createTempDirectory(work, "snippet"), LIMIT);
        String compileErrors = runner.compile(snippet, preamble);
        assertThat(compileErrors)
                .as("%s does not compile (its preamble: %s)", snippet.where(), ROOT.relativize(file))
                .isNull();
        if (preamble.compileOnly() != null) {
            System.out.println(snippet.where() + ": compiled, not run: " + preamble.compileOnly());
            return;
        }
        assertThat(runner.run()).as("%s, run", snippet.where()).isNull();
    }

    @Test
    void everyPreambleBelongsToASnippet() throws IOException {
        Set<Path> expected = DocSnippet.readAll(ROOT).stream()
                .map(DocSnippetsTest::preambleFile)
                .collect(Collectors.toCollection(TreeSet::new));
        try (Stream<Path> files = Files.walk(PREAMBLES)) {
            List<Path> stale = files.filter(Files::isRegularFile)
                    .filter(f -> !expected.contains(f))
                    .toList();
            assertThat(stale)
                    .as("preambles whose snippet is gone (renumber them when a block is added or removed)")
                    .isEmpty();
        }
    }

    @Test
    void aSnippetThatNoLongerCompilesOrFailsOrHangsIsCaught() throws Exception {
        DocSnippet broken = new DocSnippet("broken.md", 1, 3, "Timer timer = Timers.noSuchFactory();\n");
        String errors = new SnippetRunner(work.resolve("broken"), LIMIT).compile(broken, SnippetPreamble.NONE);
        assertThat(errors).contains("noSuchFactory").contains("broken.md #1 (line 3)");

        DocSnippet throwing = new DocSnippet("throwing.md", 1, 1, "throw new IllegalStateException(\"boom\");\n");
        SnippetRunner runner = new SnippetRunner(work.resolve("throwing"), LIMIT);
        assertThat(runner.compile(throwing, SnippetPreamble.NONE)).isNull();
        assertThat(runner.run()).contains("ended with status 1").contains("boom");

        DocSnippet hanging = new DocSnippet("hanging.md", 1, 1, "Thread.sleep(Long.MAX_VALUE);\n");
        runner = new SnippetRunner(work.resolve("hanging"), Duration.ofSeconds(2));
        assertThat(runner.compile(hanging, SnippetPreamble.NONE)).isNull();
        assertThat(runner.run()).contains("did not end within 2 s");
    }

    @Test
    void blocksAreFoundWithTheirLinesAndUnclosedOnesRefused() {
        List<DocSnippet> found = DocSnippet.read(
                "x.md",
                List.of("text", "```java", "int a = 1;", "```", "```bash", "ls", "```", "  ```java", "b();", "```"));
        assertThat(found)
                .containsExactly(new DocSnippet("x.md", 1, 2, "int a = 1;\n"), new DocSnippet("x.md", 2, 8, "b();\n"));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> DocSnippet.read("y.md", List.of("```java", "a();")))
                .hasMessage("y.md: the java block of line 1 is never closed");
    }

    private static Path preambleFile(DocSnippet snippet) {
        return PREAMBLES.resolve(snippet.file() + "." + snippet.ordinal() + ".txt");
    }
}
