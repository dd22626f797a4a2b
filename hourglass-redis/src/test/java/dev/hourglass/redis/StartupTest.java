package dev.hourglass.redis;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.Jedis;

/**
 * Finding 8: after a Redis start every script's first pipeline met NOSCRIPT, every connection got
 * an ERR for Jedis's CLIENT SETINFO on Redis 7.0, and a Redis stall longer than the socket timeout
 * left the claims it ran orphaned until their lease ended.
 */
class StartupTest {
    /** On Redis 7.0 and on Valkey 8 (a Redis 7.2, which knows CLIENT SETINFO and WAITAOF). */
    @ParameterizedTest
    @EnumSource(ServerBinary.class)
    void aNodeMakesRedisAnswerNoErrorAtStart(ServerBinary kind) throws InterruptedException {
        try (RedisServerProcess server = RedisServerProcess.start(kind, "always");
                Jedis admin = server.client()) {
            admin.configResetStat();
            Recorder recorder = new Recorder();
            try (RedisTimers node = RedisTimers.builder()
                    .redis("127.0.0.1", server.port())
                    .namespace("start")
                    .queues("q")
                    .shards(4)
                    .poolSize(4)
                    .build()) {
                node.register("q", recorder);
                List<TimerRequest> requests = new ArrayList<>();
                for (int i = 0; i < 50; i++) {
                    requests.add(TimerRequest.after("t" + i, Duration.ZERO, "p".getBytes(UTF_8)));
                }
                node.scheduleAll("q", requests);
                node.schedule("q", "one", Duration.ZERO, "p".getBytes(UTF_8));
                node.cancel("q", "none");
                node.lookup("q", "none");
                assertThat(recorder.awaitIds(51, Duration.ofSeconds(20))).isTrue();
            }
            assertThat(admin.info("errorstats").lines().filter(l -> l.startsWith("errorstat_")))
                    .as("errors Redis answered")
                    .isEmpty();
        }
    }

    /**
     * Closing a node sent UNSUBSCRIBE on its wake-up connection, which Valkey 8.0 answered now and
     * then with a NOSUB error (3 to 5 times in these 20 closes); the node now just closes that
     * connection. Nothing may stay connected either.
     */
    @ParameterizedTest
    @EnumSource(ServerBinary.class)
    void aClosedNodeLeavesNoConnectionAndNoErrorBehind(ServerBinary kind) throws InterruptedException {
        try (RedisServerProcess server = RedisServerProcess.start(kind, "always");
                Jedis admin = server.client()) {
            admin.configResetStat();
            for (int i = 0; i < 20; i++) {
                RedisTimers node = RedisTimers.builder()
                        .redis("127.0.0.1", server.port())
                        .namespace("close")
                        .queues("q")
                        .build();
                // closed once its wake-up subscription runs, as a node in use is
                assertThat(Recorder.eventually(
                                () -> admin.pubsubNumPat() + subscribers(admin) > 0, Duration.ofSeconds(10)))
                        .isTrue();
                node.close();
            }
            assertThat(Recorder.eventually(
                            () -> admin.info("clients").contains("connected_clients:1\r"), Duration.ofSeconds(10)))
                    .as("only the admin connection left: %s", admin.clientList())
                    .isTrue();
            assertThat(admin.info("errorstats").lines().filter(l -> l.startsWith("errorstat_")))
                    .as("errors Redis answered")
                    .isEmpty();
        }
    }

    private static long subscribers(Jedis admin) {
        return admin.pubsubChannels().stream()
                .mapToLong(c -> admin.pubsubNumSub(c).get(c))
                .sum();
    }

    /** SIGSTOP of Redis for 2 s while timers fall due, with a 300 ms socket timeout and a 30 s lease. */
    @Test
    void aRedisStallLongerThanTheSocketTimeoutDoesNotOrphanClaims() throws InterruptedException {
        try (RedisServerProcess server = RedisServerProcess.start()) {
            Recorder recorder = new Recorder();
            try (RedisTimers node = RedisTimers.builder()
                    .redis("127.0.0.1", server.port())
                    .clientConfig(DefaultJedisClientConfig.builder()
                            .socketTimeoutMillis(300)
                            .build())
                    .namespace("stall")
                    .queues("q")
                    .leaseDuration(Duration.ofSeconds(30))
                    .fallbackPoll(Duration.ofMillis(200))
                    .build()) {
                node.register("q", recorder);
                List<TimerRequest> requests = new ArrayList<>();
                for (int i = 0; i < 20; i++) {
                    requests.add(TimerRequest.after("t" + i, Duration.ofMillis(400), "p".getBytes(UTF_8)));
                }
                node.scheduleAll("q", requests);
                server.signal("STOP");
                long passes = node.passes();
                try {
                    // the node's claim passes time out meanwhile; Redis runs them when it resumes
                    assertThat(Recorder.eventually(() -> node.passes() >= passes + 3, Duration.ofSeconds(10)))
                            .isTrue();
                    Thread.sleep(500);
                } finally {
                    server.signal("CONT");
                }
                long resumed = System.nanoTime();
                assertThat(recorder.awaitIds(20, Duration.ofSeconds(25))).isTrue();
                assertThat(Duration.ofNanos(System.nanoTime() - resumed))
                        .as("delivered soon after Redis resumed, not at the end of the 30 s lease")
                        .isLessThan(Duration.ofSeconds(5));
                for (int i = 0; i < 20; i++) {
                    assertThat(recorder.of("t" + i))
                            .extracting(Recorder.Seen::attempt)
                            .containsExactly(1);
                }
            }
        }
    }
}
