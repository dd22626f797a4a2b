package dev.hourglass.examples.heartbeat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class HeartbeatCommandTest {

    @Test
    void defaults() {
        HeartbeatOptions options = HeartbeatOptions.parse();
        assertThat(options).isEqualTo(new HeartbeatOptions("127.0.0.1", 7000, 10_000, 0, 5_000, 0, 15_000, 0, false));
    }

    @Test
    void parsesEveryOption() {
        HeartbeatOptions options = HeartbeatOptions.parse(
                "--port",
                "0",
                "--idle-ms",
                "300",
                "--clients",
                "200",
                "--ping-ms",
                "100",
                "--silent",
                "0.2",
                "--seconds",
                "5",
                "--quiet",
                "--host",
                "0.0.0.0");
        assertThat(options).isEqualTo(new HeartbeatOptions("0.0.0.0", 0, 300, 200, 100, 0.2, 300, 5, true));
        assertThat(options.silentClients()).isEqualTo(40);
        assertThat(HeartbeatOptions.parse("--clients", "3", "--silent-after-ms", "0")
                        .silentAfterMillis())
                .isZero();
    }

    @Test
    void badInputNamesTheOptionAndTheValue() {
        assertBad("--port must be between 0 and 65535: 70000", "--port", "70000");
        assertBad("--port must be a whole number: 'abc'", "--port", "abc");
        assertBad("--idle-ms must be between 1 and 9223372036854: 0", "--idle-ms", "0");
        assertBad("--idle-ms must be between 1 and 9223372036854: -5", "--idle-ms", "-5");
        assertBad("--clients must be between 0 and 60000: 60001", "--clients", "60001");
        assertBad("--silent must be a fraction from 0 to 1: 1.5", "--clients", "10", "--silent", "1.5");
        assertBad("--silent must be a fraction from 0 to 1: NaN", "--clients", "10", "--silent", "NaN");
        assertBad("--silent must be a fraction from 0 to 1: 'lots'", "--clients", "10", "--silent", "lots");
        assertBad("--ping-ms must be between 1 and 9223372036854: 0", "--clients", "1", "--ping-ms", "0");
        assertBad("--ping-ms needs --clients N with N at least 1", "--ping-ms", "100");
        assertBad("--silent needs --clients N with N at least 1", "--silent", "0.5", "--clients", "0");
        assertBad("--seconds must be between 1 and 9223372036854775: 0", "--seconds", "0");
        assertBad("--host must not be blank: ' '", "--host", " ");
        assertBad("--port needs a value", "--port");
        assertBad("unknown option: --bogus", "--bogus", "1");
        assertBad("unknown option: --bogus", "--port", "0", "--bogus");
        assertBad("unexpected argument: 7000", "7000");
    }

    private static void assertBad(String message, String... args) {
        assertThatThrownBy(() -> HeartbeatOptions.parse(args))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(message);
    }

    @Test
    void commandReportsBadOptions() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = HeartbeatCommand.run(
                new String[] {"--idle-ms", "soon"},
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                false,
                new CountDownLatch(1));
        assertThat(status).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--idle-ms must be a whole number: 'soon'");
    }

    @Test
    void runsServerAndClientsAndPrintsALinePerSecond() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = HeartbeatCommand.run(
                new String[] {
                    "--port",
                    "0",
                    "--idle-ms",
                    "400",
                    "--clients",
                    "20",
                    "--ping-ms",
                    "100",
                    "--silent",
                    "0.5",
                    "--silent-after-ms",
                    "100",
                    "--seconds",
                    "2"
                },
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                false,
                new CountDownLatch(1));
        String text = out.toString(StandardCharsets.UTF_8);
        assertThat(status).as(text).isZero();
        assertThat(text)
                .contains("heartbeat server listening on /127.0.0.1:")
                .contains("load client: 20 connections pinging every 100 ms, 10 of them go silent after 100 ms")
                .containsPattern("(?m)^ +1 s  connected \\d+  kicked \\d+  accepted \\d+  pings/s \\d+  \\| client: ")
                .containsPattern("(?m)^ +2 s  connected ")
                .containsPattern("(?m)^kicked /127\\.0\\.0\\.1:\\d+ after \\d+ ms of silence$")
                .contains("server: accepted 20,")
                .containsPattern("client: 10 of 10 silent connections kicked, \\d+ of 10 pinging connections kicked");
    }

    @Test
    void stopsEarlyWhenAskedAndReportsABusyPort() throws Exception {
        try (HeartbeatServer busy = HeartbeatServer.builder().start()) {
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            CountDownLatch stop = new CountDownLatch(1);
            stop.countDown();
            int status = HeartbeatCommand.run(
                    new String[] {"--port", String.valueOf(busy.address().getPort())},
                    new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8),
                    false,
                    stop);
            assertThat(status).isEqualTo(1);
            assertThat(err.toString(StandardCharsets.UTF_8))
                    .startsWith("cannot listen on /127.0.0.1:" + busy.address().getPort() + ": ");
        }
    }
}
