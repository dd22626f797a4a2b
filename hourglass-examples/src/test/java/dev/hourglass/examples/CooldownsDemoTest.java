package dev.hourglass.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class CooldownsDemoTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String input, boolean ansi, String... args) {
        return CooldownsDemo.run(
                args,
                new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                ansi);
    }

    private String text() {
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void autoModePlaysARoundInPlainLines() {
        assertThat(run("", false, "--auto", "--seconds", "2.5")).isZero();
        String text = text();
        assertThat(text).contains("Fireball used (1/2 charges)");
        assertThat(text).contains("Dash used");
        assertThat(text).contains("Heal used");
        assertThat(text).containsPattern("round +0\\.\\d s left \\| Fireball");
        assertThat(text).contains("Dash charge ready (1/1 charges)");
        assertThat(text).containsPattern("round over after (2\\.[5-9]|[3-9]\\.\\d) s: [1-9]\\d* uses");
        assertThat(text).doesNotContain("\u001b[");
        assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    @Test
    void aTerminalIsRedrawnInPlace() {
        assertThat(run("", true, "--auto", "--seconds", "0.5")).isZero();
        String text = text();
        assertThat(text).contains("\u001b[?25l").contains("\u001b[H").contains("\u001b[?25h");
        assertThat(text).containsPattern("\\[1\\] Fireball +\\[[#-]{24}\\]");
        assertThat(text).contains("round over");
    }

    @Test
    void keysUseAbilitiesAndQQuits() {
        assertThat(run("1\n1\n1\nx\nr\n2\nq\n", false, "--seconds", "20")).isZero();
        String text = text();
        assertThat(text).contains("Fireball used (1/2 charges)");
        assertThat(text).contains("Fireball used (0/2 charges)");
        assertThat(text).containsPattern("Fireball not ready: [23]\\.\\d s");
        assertThat(text).contains("unknown key: x");
        assertThat(text).contains("reset: every ability ready");
        assertThat(text).contains("Dash used");
        assertThat(text).contains("quit");
        assertThat(text).containsPattern("round over after \\d+\\.\\d s: 3 uses, 1 refused");
    }

    @Test
    void badOptionsAreNamed() {
        assertThat(run("", false, "--seconds", "0")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--seconds").contains(": 0");
        assertThat(run("", false, "--seconds")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--seconds needs a value");
        assertThat(run("", false, "--seconds", "soon")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("not a number: soon");
        assertThat(run("", false, "--bogus")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("unknown option: --bogus");
    }
}
