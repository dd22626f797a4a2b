package dev.hourglass.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hourglass.queue.TimerStructure;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class StructuresDemoTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return StructuresDemo.run(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void firesEveryTimerOnEveryStructure() {
        assertThat(run("--timers", "50", "--span-ms", "2", "--tick-us", "100")).isZero();
        String text = out.toString(StandardCharsets.UTF_8);
        for (TimerStructure structure : TimerStructure.values()) {
            assertThat(text).containsPattern(structure.name().toLowerCase(Locale.ROOT) + " +50 ");
        }
        assertThat(text).contains("every timer fired, none early");
    }

    @Test
    void badOptionsAreNamed() {
        assertThat(run("--timers", "0")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--timers").contains(": 0");
        assertThat(run("--span-ms")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--span-ms needs a value");
        assertThat(run("--bogus", "1")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("unknown option: --bogus");
        assertThat(run("--tick-us", "abc")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--tick-us must be a whole number: 'abc'");
        assertThat(run("--timers", "5", "--bogus")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("unknown option: --bogus");
        assertThat(run("200")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("unexpected argument: 200");
    }
}
