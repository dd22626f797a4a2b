package dev.hourglass.it;

import dev.hourglass.it.SnippetPreamble.Section;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Wraps a snippet in a class with its preamble, compiles it against the published modules (on the
 * test's class path) and runs it in a JVM of its own, under a time limit.
 */
final class SnippetRunner {

    /** Every snippet may use these without importing them: the published packages and java.time. */
    private static final String COMMON_IMPORTS;

    static {
        StringBuilder imports = new StringBuilder();
        for (PublishedModules published : PublishedModules.ALL) {
            published.exports().keySet().stream()
                    .sorted()
                    .forEach(p -> imports.append("import ").append(p).append(".*;\n"));
        }
        imports.append("import java.time.*;\nimport java.util.List;\nimport java.util.Optional;\n");
        COMMON_IMPORTS = imports.toString();
    }

    private static final String CLASS = "Snippet";

    private final Path work;
    private final Duration limit;

    /**
     * Makes a runner.
     *
     * @param work an empty directory for the generated sources and classes
     * @param limit how long a snippet may run
     */
    SnippetRunner(Path work, Duration limit) {
        this.work = work;
        this.limit = limit;
    }

    /**
     * Returns the class a snippet is compiled as.
     *
     * @param snippet the snippet
     * @param preamble what it needs around it
     * @return the source of a class whose {@code main} runs the snippet
     */
    static String source(DocSnippet snippet, SnippetPreamble preamble) {
        return COMMON_IMPORTS
                + preamble.get(Section.IMPORTS)
                + "\n/** " + snippet.where() + " */\npublic final class " + CLASS + " {\n"
                + "    private " + CLASS + "() {}\n\n"
                + preamble.get(Section.MEMBERS)
                + "\n    public static void main(String[] args) throws Exception {\n"
                + preamble.get(Section.BEFORE)
                + "// --- " + snippet.where() + "\n"
                + snippet.code()
                + "// --- end of the snippet\n"
                + preamble.get(Section.AFTER)
                + "    }\n}\n";
    }

    /**
     * Compiles the snippet.
     *
     * @param snippet the snippet
     * @param preamble what it needs around it
     * @return null if it compiled, else javac's diagnostics followed by the numbered source
     * @throws IOException if the source cannot be written
     */
    String compile(DocSnippet snippet, SnippetPreamble preamble) throws IOException {
        String source = source(snippet, preamble);
        Path file =
                Files.writeString(Files.createDirectories(work.resolve("src")).resolve(CLASS + ".java"), source);
        String diagnostics = Javac.compile(
                List.of(
                        "-proc:none",
                        "-classpath",
                        System.getProperty("java.class.path"),
                        "-d",
                        classes().toString()),
                List.of(file));
        if (diagnostics == null) {
            return null;
        }
        StringBuilder numbered = new StringBuilder();
        List<String> lines = source.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            numbered.append(String.format("%4d  %s%n", i + 1, lines.get(i)));
        }
        return diagnostics + "\n" + numbered;
    }

    /**
     * Runs the compiled snippet in a JVM of its own.
     *
     * @return null if it ended with status 0 within the limit, else what went wrong and its output
     * @throws IOException if the JVM cannot be started
     * @throws InterruptedException if interrupted while waiting for it
     */
    String run() throws IOException, InterruptedException {
        Path output = work.resolve("output.txt");
        Process java = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        classes() + File.pathSeparator + System.getProperty("java.class.path"),
                        CLASS)
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
        if (!java.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
            java.destroyForcibly().waitFor();
            return "did not end within " + limit.toSeconds() + " s; its output:\n" + read(output);
        }
        return java.exitValue() == 0
                ? null
                : "ended with status " + java.exitValue() + "; its output:\n" + read(output);
    }

    private Path classes() {
        return work.resolve("classes");
    }

    private static String read(Path output) throws IOException {
        return Files.readString(output, StandardCharsets.UTF_8);
    }
}
