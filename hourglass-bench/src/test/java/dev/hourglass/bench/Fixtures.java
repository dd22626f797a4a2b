package dev.hourglass.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/** Fixed inputs for the report tests: JMH JSON files in the test resources, and a fixed run. */
final class Fixtures {

    /** JMH results from three forks: enough for verdicts. */
    static final String THREE_FORKS = "jmh-three-forks.json";
    /** JMH results from one fork: provisional. */
    static final String ONE_FORK = "jmh-one-fork.json";

    private Fixtures() {}

    static String text(String resource) {
        try (InputStream in = Fixtures.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("no test resource " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Results results(String resource) {
        return new Results(JmhResults.read(text(resource), Workloads.all()), List.of(), Map.of());
    }

    static RunInfo run(int forks) {
        MachineInfo machine = new MachineInfo(
                "Intel(R) Xeon(R) Processor", 2, "23.5 GiB", "OpenJDK 64-Bit Server VM 17.0.15", "Linux", "0.1");
        return new RunInfo(
                "2026-11-25 21:00 UTC",
                machine,
                forks >= 3 ? "full" : "quick",
                forks + " forks",
                forks,
                "./hourglass shootout --full");
    }
}
