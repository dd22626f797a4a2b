package dev.hourglass.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MainTest {

    /** Every command Main runs itself; the shootout runs from ./hourglass (see scriptCommandsPointToTheScript). */
    private static final List<String> COMMANDS = List.of("demo", "cooldowns", "heartbeat-server");

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        out.reset();
        err.reset();
        return Main.run(
                args,
                new ByteArrayInputStream(new byte[0]),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    @ValueSource(strings = {"help", "--help", "-h"})
    void helpListsEveryCommand(String help) {
        assertThat(run(help)).isZero();
        assertThat(out()).startsWith("usage: ./hourglass [command] [options]");
        for (String command : COMMANDS) {
            assertThat(out()).containsPattern("(?m)^  " + command + " +\\S");
        }
        assertThat(out())
                .containsPattern("(?m)^  shootout +\\S")
                .containsPattern("(?m)^  redis +\\S")
                .containsPattern("(?m)^  help \\[command\\] +\\S");
        assertThat(err()).isEmpty();
    }

    @Test
    void everyCommandAnswersHelpWithItsOwnUsage() {
        for (String command : COMMANDS) {
            for (String[] args : List.of(
                    new String[] {command, "--help"},
                    new String[] {command, "-h"},
                    new String[] {"help", command},
                    new String[] {command, "--seconds", "1", "--help"})) {
                String call = String.join(" ", args);
                assertThat(run(args)).as(call).isZero();
                assertThat(out()).as(call).startsWith("usage: ./hourglass " + command + " [--");
                assertThat(out().lines().count()).as(call).isGreaterThan(1);
                assertThat(err()).as(call).isEmpty();
            }
        }
    }

    @Test
    void everyCommandNamesAnUnknownOption() {
        for (String command : COMMANDS) {
            for (String[] args : List.of(new String[] {command, "--bogus"}, new String[] {command, "--bogus", "1"})) {
                String call = String.join(" ", args);
                assertThat(run(args)).as(call).isEqualTo(2);
                assertThat(err())
                        .as(call)
                        .contains("unknown option: --bogus")
                        .contains("./hourglass " + command + " --help lists its options");
                assertThat(out()).as(call).isEmpty();
            }
        }
    }

    @Test
    void unknownCommandIsNamedAndTheCommandsListed() {
        assertThat(run("frobnicate")).isEqualTo(2);
        assertThat(err()).startsWith("unknown command: frobnicate").contains("heartbeat-server");
        assertThat(run("help", "frobnicate")).isEqualTo(2);
        assertThat(err()).startsWith("unknown command: frobnicate");
        assertThat(out()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"shootout", "redis"})
    void scriptCommandsPointToTheScript(String command) {
        assertThat(run(command, "--full")).isEqualTo(2);
        assertThat(err()).contains("./hourglass " + command + ", which builds it first");
    }
}
