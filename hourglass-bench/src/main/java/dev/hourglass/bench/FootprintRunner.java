package dev.hourglass.bench;

import dev.hourglass.bench.footprint.Footprint;
import dev.hourglass.bench.footprint.FootprintRow;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Optional;

/**
 * Measures one implementation's footprint in a fresh JVM with the serial collector, so the used
 * heap after {@code System.gc()} is exact and nothing of the benchmarks is on the heap.
 *
 * <p>Complexity: one JVM start plus the measurement. Ordering: n/a. Thread-safety: one at a time.
 */
final class FootprintRunner {

    private FootprintRunner() {}

    /**
     * Measures {@code impl} with {@code n} timers.
     *
     * @param impl one of {@link Footprint#implNames()}
     * @param n the number of timers
     * @return the row, or empty with the reason printed on standard error
     */
    static Optional<FootprintRow> measure(String impl, int n) {
        Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
        ProcessBuilder builder = new ProcessBuilder(List.of(
                java.toString(),
                "-XX:+UseSerialGC",
                "-Xmx2g",
                "-cp",
                System.getProperty("java.class.path"),
                Footprint.class.getName(),
                Integer.toString(n),
                impl));
        builder.redirectError(ProcessBuilder.Redirect.DISCARD);
        try {
            Process process = builder.start();
            String output;
            try (InputStream in = process.getInputStream()) {
                output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            int exit = process.waitFor();
            for (String line : output.split("\n")) {
                if (line.startsWith(impl + "\t")) {
                    return Optional.of(FootprintRow.parse(line));
                }
            }
            System.err.println("\nfootprint of " + impl + " gave no result (exit " + exit + ")");
            return Optional.empty();
        } catch (IOException e) {
            System.err.println("\nfootprint of " + impl + " could not run: " + e);
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }
}
