package dev.hourglass.examples.lettuce;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hourglass.redis.RedisServerProcess;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The example against a real redis-server: fails, never skips, without one. */
@org.junit.jupiter.api.Timeout(120)
class SharedTimerExampleTest {

    @Test
    void requestsAnswerOrTimeOutOnTheApplicationsDeadlineAndLettucesOnItsOwnOnOneTimer() throws Exception {
        try (RedisServerProcess server = RedisServerProcess.start("no")) {
            ByteArrayOutputStream printed = new ByteArrayOutputStream();
            List<String> report = SharedTimerExample.run(
                    "127.0.0.1", server.port(), new PrintStream(printed, true, StandardCharsets.UTF_8));

            assertThat(report).hasSize(SharedTimerExample.WORK.size() + 2);
            assertThat(report.get(0)).contains("answered, request number");
            assertThat(report.get(1)).contains("answered, request number");
            assertThat(report.get(2)).contains("timed out (the application's 1000 ms)");
            assertThat(report.get(3)).contains("timed out (the application's 1000 ms)");
            Matcher blpop = Pattern.compile(
                            "BLPOP of 2 s: timed out \\(Lettuce's 500 ms command timeout\\) after (\\d+) ms")
                    .matcher(report.get(4));
            assertThat(blpop.matches()).as(report.get(4)).isTrue();
            assertThat(Long.parseLong(blpop.group(1))).isBetween(500L, 1_999L);
            assertThat(report.get(5)).startsWith("the shared timer: ");
            assertThat(printed.toString(StandardCharsets.UTF_8)).contains(report.get(5));
        }
    }
}
