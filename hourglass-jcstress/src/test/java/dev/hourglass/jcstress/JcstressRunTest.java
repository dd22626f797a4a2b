package dev.hourglass.jcstress;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.openjdk.jcstress.JCStress;
import org.openjdk.jcstress.Options;
import org.openjdk.jcstress.infra.Status;
import org.openjdk.jcstress.infra.collectors.DiskReadCollector;
import org.openjdk.jcstress.infra.collectors.InProcessCollector;
import org.openjdk.jcstress.infra.collectors.TestResult;
import org.openjdk.jcstress.infra.runners.TestList;

/**
 * Runs every jcstress test of this module in a short mode, so that {@code mvn verify} fails when a
 * test sees a forbidden outcome, errs, times out, or does not run at all (jcstress itself skips a
 * test it cannot schedule, e.g. more actors than CPUs, without failing).
 *
 * <p>The arguments come from the system property {@code jcstress.args} (the pom's CI setting);
 * {@code mvn -pl hourglass-jcstress -am verify -Djcstress.args="-m default"} runs a longer proof.
 */
class JcstressRunTest {

    @Test
    void everyTestRunsAndSeesNoForbiddenOutcome() throws Exception {
        Path results = Path.of(System.getProperty("jcstress.results", "target/jcstress"));
        Files.createDirectories(results);
        List<String> args = new ArrayList<>(Arrays.asList(
                System.getProperty("jcstress.args", "-m quick").trim().split("\\s+")));
        args.addAll(List.of("-r", results.toString()));
        Options options = new Options(args.toArray(String[]::new));
        assertThat(options.parse()).as("jcstress arguments %s", args).isTrue();

        long start = System.nanoTime();
        // Throws an AssertionError listing every failure once the run is over.
        new JCStress(options).run();
        System.out.printf(
                "jcstress run of %d tests took %.1f s%n", TestList.tests().size(), (System.nanoTime() - start) / 1e9);

        InProcessCollector collected = new InProcessCollector();
        DiskReadCollector reader = new DiskReadCollector(options.getResultFile(), collected);
        reader.dump();
        reader.close();
        Map<String, Long> samples = new TreeMap<>();
        for (TestResult result : collected.getTestResults()) {
            assertThat(result.status()).as("status of %s", result.getName()).isEqualTo(Status.NORMAL);
            assertThat(result.grading().isPassed)
                    .as("grading of %s", result.getName())
                    .isTrue();
            samples.merge(result.getName(), result.getTotalCount(), Long::sum);
        }
        assertThat(samples.keySet())
                .as("tests that ran (each needs as many CPUs as it has actors: 2)")
                .isEqualTo(new TreeSet<>(TestList.tests()));
        assertThat(samples)
                .allSatisfy((test, count) ->
                        assertThat(count).as("samples of %s", test).isPositive());
    }
}
