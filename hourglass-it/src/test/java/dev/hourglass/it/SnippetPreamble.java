package dev.hourglass.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What a snippet needs around it to compile and run: imports, stand-ins for the names it takes for
 * granted (a {@code connection}, a {@code playerId}), set-up before it and clean-up after it.
 *
 * <p>A preamble file holds Java text under marker lines: {@code //@ imports}, {@code //@ members}
 * (static members of the generated class), {@code //@ before} and {@code //@ after} (statements
 * around the snippet in {@code main}), and {@code //@ compile-only: why} for a snippet that cannot
 * run here (it needs a Redis server, say). Text before the first marker is a comment for readers.
 *
 * @param sections each section's text
 * @param compileOnly why the snippet is compiled but not run, or null to run it
 */
record SnippetPreamble(Map<Section, String> sections, String compileOnly) {

    /** Where a preamble's text goes in the generated class. */
    enum Section {
        /** Import declarations. */
        IMPORTS,
        /** Static members of the generated class. */
        MEMBERS,
        /** Statements before the snippet. */
        BEFORE,
        /** Statements after the snippet. */
        AFTER
    }

    private static final String MARKER = "//@ ";
    private static final String COMPILE_ONLY = "compile-only:";

    /** The preamble of a snippet that needs nothing but the common imports. */
    static final SnippetPreamble NONE = new SnippetPreamble(Map.of(), null);

    /**
     * Reads a preamble file.
     *
     * @param file the file
     * @return its sections
     * @throws IllegalArgumentException naming the file and the line of an unknown marker
     */
    static SnippetPreamble read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<Section, StringBuilder> text = new EnumMap<>(Section.class);
        String compileOnly = null;
        Section current = null;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.startsWith(MARKER)) {
                String marker = line.substring(MARKER.length()).strip();
                if (marker.startsWith(COMPILE_ONLY)) {
                    compileOnly = marker.substring(COMPILE_ONLY.length()).strip();
                    continue;
                }
                try {
                    current = Section.valueOf(marker.toUpperCase(java.util.Locale.ROOT));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(file + ":" + (i + 1) + ": unknown marker '" + line + "'", e);
                }
                continue;
            }
            if (current != null) {
                text.computeIfAbsent(current, s -> new StringBuilder())
                        .append(line)
                        .append('\n');
            }
        }
        Map<Section, String> sections = new EnumMap<>(Section.class);
        text.forEach((section, body) -> sections.put(section, body.toString()));
        return new SnippetPreamble(sections, compileOnly);
    }

    /**
     * Returns a section's text.
     *
     * @param section the section
     * @return its text, empty if the preamble has none
     */
    String get(Section section) {
        return sections.getOrDefault(section, "");
    }
}
