package dev.hourglass.redis;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.exceptions.JedisConnectionException;

/** Redis killed with SIGKILL and restarted: acknowledged schedules survive (AOF), nodes recover. */
class RedisRestartTest {
    private static final Duration AWAIT = Duration.ofSeconds(30);

    private static RedisTimersBuilder builder(RedisServerProcess server, String namespace) {
        return RedisTimers.builder()
                .redis("127.0.0.1", server.port())
                .namespace(namespace)
                .queues("q")
                .shards(2)
                .leaseDuration(Duration.ofSeconds(5))
                .fallbackPoll(Duration.ofMillis(300));
    }

    @Test
    void acknowledgedSchedulesSurviveARedisKilledWithSigkill() throws InterruptedException {
        try (RedisServerProcess server = RedisServerProcess.start("always")) {
            int timers = 1_000;
            try (RedisTimers producer = builder(server, "aof").build()) {
                List<TimerRequest> requests = new ArrayList<>();
                for (int i = 0; i < timers - 1; i++) {
                    requests.add(TimerRequest.after("a" + i, Duration.ofMillis(500), ("p" + i).getBytes(UTF_8)));
                }
                producer.scheduleAll("q", requests);
                producer.schedule(
                        "q", "a" + (timers - 1), Duration.ofMillis(500), ("p" + (timers - 1)).getBytes(UTF_8));
            }
            server.kill();
            server.restart();

            Recorder recorder = new Recorder();
            try (RedisTimers node = builder(server, "aof").build()) {
                node.register("q", recorder);
                assertThat(recorder.awaitIds(timers, AWAIT)).isTrue();
            }
            for (int i = 0; i < timers; i++) {
                assertThat(recorder.of("a" + i)).hasSize(1).first().satisfies(s -> assertThat(s.attempt())
                        .isEqualTo(1));
            }
        }
    }

    @Test
    void redisDownGivesAClearExceptionAndANodeSurvivesARestart() throws InterruptedException {
        try (RedisServerProcess server = RedisServerProcess.start("always")) {
            Recorder recorder = new Recorder();
            try (RedisTimers node = builder(server, "down").build()) {
                node.register("q", recorder);
                node.schedule("q", "before", Duration.ofSeconds(2), "b".getBytes(UTF_8));
                server.kill();

                assertThatThrownBy(() -> node.schedule("q", "lost", Duration.ZERO, "l".getBytes(UTF_8)))
                        .isInstanceOf(RedisTimersException.class)
                        .hasMessageStartingWith("schedule of 'lost' on queue 'q' was not acknowledged")
                        .hasCauseInstanceOf(JedisConnectionException.class);
                assertThatThrownBy(() -> node.cancel("q", "before"))
                        .isInstanceOf(RedisTimersException.class)
                        .hasMessageStartingWith("cancel of 'before' on queue 'q' was not acknowledged");
                long passes = node.passes();
                // the claim loop keeps failing and retrying meanwhile
                assertThat(Recorder.eventually(() -> node.passes() >= passes + 2, AWAIT))
                        .isTrue();

                server.restart(); // an empty script cache: EVALSHA answers NOSCRIPT
                node.schedule("q", "after", Duration.ofMillis(100), "a".getBytes(UTF_8));
                assertThat(recorder.awaitIds(2, AWAIT)).isTrue();
                assertThat(recorder.byId().keySet()).containsExactlyInAnyOrder("before", "after");
                assertThat(node.lookup("q", "lost")).isEmpty();
            }
        }
    }
}
