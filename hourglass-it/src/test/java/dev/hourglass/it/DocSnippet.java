package dev.hourglass.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * One {@code ```java} block of a markdown file.
 *
 * @param file the markdown file, relative to the repository's root, with {@code /} separators
 * @param ordinal 1 for the file's first Java block, 2 for its second, ...
 * @param line the line of the opening fence, counted from 1
 * @param code the block's text, without the fences
 */
record DocSnippet(String file, int ordinal, int line, String code) {

    private static final String OPEN = "```java";
    private static final String CLOSE = "```";

    /**
     * Reads the Java blocks of README.md and of every markdown file in docs/.
     *
     * @param root the repository's root
     * @return the blocks, file by file in name order
     */
    static List<DocSnippet> readAll(Path root) {
        List<Path> files = new ArrayList<>();
        files.add(root.resolve("README.md"));
        try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
            docs.filter(p -> p.getFileName().toString().endsWith(".md"))
                    .sorted()
                    .forEach(files::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<DocSnippet> snippets = new ArrayList<>();
        for (Path file : files) {
            snippets.addAll(read(root.relativize(file).toString().replace('\\', '/'), readLines(file)));
        }
        return snippets;
    }

    /**
     * Finds the Java blocks of one markdown text.
     *
     * @param file the name to give them
     * @param lines the text
     * @return its blocks in order
     * @throws IllegalArgumentException if a block is never closed
     */
    static List<DocSnippet> read(String file, List<String> lines) {
        List<DocSnippet> snippets = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).strip().equals(OPEN)) {
                continue;
            }
            int open = i;
            StringBuilder code = new StringBuilder();
            for (i++; i < lines.size() && !lines.get(i).strip().equals(CLOSE); i++) {
                code.append(lines.get(i)).append('\n');
            }
            if (i == lines.size()) {
                throw new IllegalArgumentException(
                        file + ": the java block of line " + (open + 1) + " is never closed");
            }
            snippets.add(new DocSnippet(file, snippets.size() + 1, open + 1, code.toString()));
        }
        return snippets;
    }

    /**
     * Names the snippet in messages.
     *
     * @return for example {@code README.md #2 (line 130)}
     */
    String where() {
        return file + " #" + ordinal + " (line " + line + ")";
    }

    private static List<String> readLines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
