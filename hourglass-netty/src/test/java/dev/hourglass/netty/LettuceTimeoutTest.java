package dev.hourglass.netty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hourglass.redis.RedisServerProcess;
import dev.hourglass.timer.Timers;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.resource.ClientResources;
import io.netty.util.HashedWheelTimer;
import io.netty.util.Timer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The proof inside Lettuce: a real redis-server, Lettuce's {@code ClientResources} given the timer,
 * a command timeout of {@value #TIMEOUT_MILLIS} ms. The server is paused with SIGSTOP; the pending
 * command must fail with Lettuce's {@link RedisCommandTimeoutException} no earlier than the timeout
 * and less than {@value #SLACK_MILLIS} ms after it; after SIGCONT the same client works again. The
 * same test runs with Netty's own {@link HashedWheelTimer}, so the comparison is fair. No
 * redis-server on the PATH: the test fails, it never skips.
 */
@org.junit.jupiter.api.Timeout(120)
class LettuceTimeoutTest {

    private static final long TIMEOUT_MILLIS = 500;
    private static final long SLACK_MILLIS = 1_500;
    private static final long AWAIT_SECONDS = 20;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"hourglass", "netty HashedWheelTimer"})
    void aCommandTimesOutOnTimeWhileTheServerIsPausedAndTheClientWorksAfter(String kind) throws Exception {
        dev.hourglass.timer.Timer hourglass =
                kind.equals("hourglass") ? Timers.builder().startTimerThread() : null;
        Timer timer = hourglass != null ? NettyTimers.wrap(hourglass) : new HashedWheelTimer();
        try (RedisServerProcess server = RedisServerProcess.start("no")) {
            ClientResources resources = ClientResources.builder().timer(timer).build();
            RedisClient client = RedisClient.create(resources, RedisURI.create("127.0.0.1", server.port()));
            client.setOptions(ClientOptions.builder()
                    .timeoutOptions(TimeoutOptions.enabled(Duration.ofMillis(TIMEOUT_MILLIS)))
                    .build());
            try (StatefulRedisConnection<String, String> connection = client.connect()) {
                RedisAsyncCommands<String, String> redis = connection.async();
                assertThat(redis.set("key", "value").get(AWAIT_SECONDS, TimeUnit.SECONDS))
                        .isEqualTo("OK");
                long firedBefore = hourglass == null ? 0 : hourglass.stats().fired();

                server.signal("STOP");
                long elapsedMillis;
                try {
                    AtomicLong failedAt = new AtomicLong();
                    long sent = System.nanoTime();
                    CompletableFuture<String> get = redis.get("key").toCompletableFuture();
                    get.whenComplete((value, error) -> failedAt.set(System.nanoTime()));
                    assertThatThrownBy(() -> get.get(AWAIT_SECONDS, TimeUnit.SECONDS))
                            .isInstanceOf(ExecutionException.class)
                            .hasCauseInstanceOf(RedisCommandTimeoutException.class);
                    elapsedMillis = TimeUnit.NANOSECONDS.toMillis(failedAt.get() - sent);
                } finally {
                    server.signal("CONT");
                }
                System.out.println(kind + ": the command timed out after " + elapsedMillis + " ms");
                assertThat(elapsedMillis).isBetween(TIMEOUT_MILLIS, TIMEOUT_MILLIS + SLACK_MILLIS - 1);
                if (hourglass != null) {
                    assertThat(hourglass.stats().fired())
                            .as("the timeout fired on the Hourglass timer")
                            .isGreaterThan(firedBefore);
                }

                assertThat(redis.get("key").get(AWAIT_SECONDS, TimeUnit.SECONDS))
                        .as("the client works again after SIGCONT")
                        .isEqualTo("value");
                assertThat(redis.set("key", "again").get(AWAIT_SECONDS, TimeUnit.SECONDS))
                        .isEqualTo("OK");
            } finally {
                client.shutdown();
                resources.shutdown().get(AWAIT_SECONDS, TimeUnit.SECONDS);
            }
            assertThat(timer.stop())
                    .as("Lettuce leaves a timer it was given running")
                    .isNotNull();
        } finally {
            timer.stop();
        }
    }
}
