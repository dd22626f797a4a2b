package dev.hourglass.redis;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/** A node's own counts ({@link RedisTimers#nodeStats()}) against a real redis-server. */
class NodeStatsTest {
    private static final Duration AWAIT = Duration.ofSeconds(20);
    private static final AtomicInteger NAMESPACES = new AtomicInteger();

    @RegisterExtension
    static final RedisServerExtension REDIS = new RedisServerExtension();

    private final List<RedisTimers> nodes = new ArrayList<>();
    private final String namespace = "n" + NAMESPACES.incrementAndGet();
    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void closeNodes() {
        release.countDown();
        nodes.forEach(RedisTimers::close);
    }

    private RedisTimers start(RedisTimersBuilder builder) {
        RedisTimers node = builder.redis("127.0.0.1", REDIS.server().port())
                .namespace(namespace)
                .queues("q")
                .shards(2)
                .fallbackPoll(Duration.ofMillis(200))
                .build();
        nodes.add(node);
        return node;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(UTF_8);
    }

    @Test
    void countsSchedulesDeliveriesRetriesAndDeadLetters() throws InterruptedException {
        RedisTimers node =
                start(RedisTimers.builder().maxAttempts(2).backoff(Duration.ofMillis(20), Duration.ofMillis(20)));
        assertThat(node.nodeStats().toString()).contains("scheduled=0", "fired=0");
        node.register("q", d -> {
            if (d.id().equals("bad")) {
                throw new IllegalStateException("failing on purpose (expected in this test)");
            }
        });
        node.schedule("q", "ok", Duration.ZERO, bytes("x"));
        node.schedule("q", "bad", Duration.ZERO, bytes("x"));
        node.scheduleAll(
                "q",
                List.of(
                        TimerRequest.after("later1", Duration.ofHours(1), bytes("x")),
                        TimerRequest.after("later2", Duration.ofHours(1), bytes("x"))));

        assertThat(Recorder.eventually(() -> node.nodeStats().dead() == 1, AWAIT))
                .as("%s", node.nodeStats())
                .isTrue();
        assertThat(Recorder.eventually(() -> node.lookup("q", "ok").isEmpty(), AWAIT))
                .isTrue();
        RedisNodeStats stats = node.nodeStats();
        assertThat(stats.scheduled()).isEqualTo(4);
        assertThat(stats.fired()).as("ok once, bad twice").isEqualTo(3);
        assertThat(stats.retried()).as("bad's first attempt").isOne();
        assertThat(stats.dead()).as("bad's last attempt").isOne();
        assertThat(stats.inFlight()).isZero();
        assertThat(node.deadLetters("q", 10)).extracting(TimerSnapshot::id).containsExactly("bad");
    }

    @Test
    void showsDeliveriesRunningAndTheirLagOnRedisClock() throws InterruptedException {
        RedisTimers node = start(RedisTimers.builder());
        long redisNow;
        try (Jedis jedis = REDIS.server().client()) {
            List<String> time = jedis.time();
            redisNow = Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
        }
        // Due five seconds ago: claimed with a lag of at least that much.
        node.schedule("q", "late", Instant.ofEpochMilli(redisNow - 5_000), bytes("x"));
        node.register("q", d -> Recorder.awaitUninterruptibly(release));

        assertThat(Recorder.eventually(() -> node.nodeStats().inFlight() == 1, AWAIT))
                .isTrue();
        RedisNodeStats running = node.nodeStats();
        assertThat(running.fired()).isOne();
        assertThat(running.lagMax())
                .isBetween(Duration.ofMillis(5_000), Duration.ofMillis(5_000).plus(AWAIT));
        assertThat(running.lagTotal()).isEqualTo(running.lagMax());

        release.countDown();
        assertThat(Recorder.eventually(() -> node.nodeStats().inFlight() == 0, AWAIT))
                .isTrue();
        assertThat(Recorder.eventually(() -> node.lookup("q", "late").isEmpty(), AWAIT))
                .isTrue();
        assertThat(node.nodeStats().retried()).isZero();
    }

    @Test
    void countsATimerWhoseLastLeaseRanOutAsDead() throws InterruptedException {
        RedisTimers node = start(RedisTimers.builder().maxAttempts(1));
        node.schedule("q", "orphan", Duration.ZERO, bytes("x"));
        ShardKeys shard = ShardKeys.of(namespace, "q", 2)[ShardKeys.shardOf("orphan", 2)];
        try (Servers servers = DirectServers.of(REDIS.server())) {
            // A node that crashed: it claimed the timer's only attempt under a 1 ms lease. Again until
            // it is taken: the due time is rounded up to Redis's next millisecond, so a claim in the
            // same millisecond as the schedule finds nothing.
            AtomicReference<List<?>> claimed = new AtomicReference<>();
            assertThat(Recorder.eventually(
                            () -> {
                                claimed.set((List<?>) ScriptRunner.run(
                                        servers,
                                        new ScriptRunner.Call(
                                                Script.CLAIM,
                                                shard.keys(),
                                                List.of(bytes("1"), bytes("1"), bytes("1"), bytes("crashed")))));
                                return claimed.get().size() > Script.CLAIM_HEADER;
                            },
                            AWAIT))
                    .isTrue();
            assertThat(claimed.get()).hasSize(Script.CLAIM_HEADER + 6);
        }
        Thread.sleep(5); // its lease runs out
        node.register("q", d -> {});

        assertThat(Recorder.eventually(() -> node.nodeStats().dead() == 1, AWAIT))
                .as("%s", node.nodeStats())
                .isTrue();
        assertThat(node.nodeStats().fired()).isZero();
        assertThat(node.deadLetters("q", 10)).extracting(TimerSnapshot::id).containsExactly("orphan");
    }
}
