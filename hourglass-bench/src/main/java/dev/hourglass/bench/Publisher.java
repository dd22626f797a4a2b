package dev.hourglass.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Publishes a run folder: copies its report, decision guide and charts into {@code docs/} (the
 * charts folder is replaced, so no chart of an older run lingers) and splices its README block
 * into {@code README.md} between {@link ReadmeTable#BEGIN} and {@link ReadmeTable#END}. Only
 * {@code --publish} and {@code --publish-run} call it.
 *
 * <p>Complexity: O(files). Ordering: n/a. Thread-safety: one thread.
 */
final class Publisher {

    private Publisher() {}

    /**
     * Publishes a run.
     *
     * @param run the run's folder, as {@link RunFiles} wrote it
     * @param root the repository's root, holding README.md and docs/
     * @return the files written
     * @throws IOException if a file cannot be read or written
     * @throws IllegalArgumentException if the run folder lacks a file, or README.md its markers
     */
    static List<Path> publish(Path run, Path root) throws IOException {
        for (String name : List.of(RunFiles.REPORT, RunFiles.GUIDE, RunFiles.README_TABLE)) {
            if (!Files.isRegularFile(run.resolve(name))) {
                throw new IllegalArgumentException("run folder " + run + " has no " + name + ": not a shootout run");
            }
        }
        Path readme = root.resolve("README.md");
        String spliced = splice(Files.readString(readme), Files.readString(run.resolve(RunFiles.README_TABLE)));
        Path docs = root.resolve("docs");
        Path charts = docs.resolve(RunFiles.CHARTS);
        Files.createDirectories(charts);
        List<Path> written = new ArrayList<>();
        try (Stream<Path> old = Files.list(charts)) {
            for (Path png : old.filter(p -> p.toString().endsWith(".png")).toList()) {
                Files.delete(png);
            }
        }
        Path runCharts = run.resolve(RunFiles.CHARTS);
        if (Files.isDirectory(runCharts)) {
            try (Stream<Path> pngs = Files.list(runCharts)) {
                pngs.filter(p -> p.toString().endsWith(".png")).forEach(p -> written.add(copy(p, charts)));
            }
        }
        written.add(copy(run.resolve(RunFiles.REPORT), docs));
        written.add(copy(run.resolve(RunFiles.GUIDE), docs));
        Files.writeString(readme, spliced);
        written.add(readme);
        return written;
    }

    /**
     * Replaces what lies between the markers.
     *
     * @param readme the README's text
     * @param block the generated block
     * @return the new text
     * @throws IllegalArgumentException if a marker is missing or they are out of order
     */
    static String splice(String readme, String block) {
        int begin = readme.indexOf(ReadmeTable.BEGIN);
        int end = readme.indexOf(ReadmeTable.END);
        if (begin < 0 || end < begin) {
            throw new IllegalArgumentException("README.md needs the lines " + ReadmeTable.BEGIN + " and "
                    + ReadmeTable.END + ", in that order, around the measured table");
        }
        return readme.substring(0, begin + ReadmeTable.BEGIN.length()) + "\n" + block + readme.substring(end);
    }

    private static Path copy(Path file, Path dir) {
        try {
            return Files.copy(file, dir.resolve(file.getFileName().toString()), StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
