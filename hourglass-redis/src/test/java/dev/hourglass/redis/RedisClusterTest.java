package dev.hourglass.redis;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * Finding 6: against a Redis Cluster half the schedules failed with MOVED, reported as retryable,
 * and nodes that disagreed on the shard count stranded timers silently. Now every shard goes to the
 * master of its slot. One real local cluster (3 masters, 3 replicas) for the class.
 */
class RedisClusterTest {
    private static final int SHARDS = 8;
    private static RedisClusterProcess cluster;

    @BeforeAll
    static void startCluster() {
        cluster = RedisClusterProcess.start();
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static RedisTimersBuilder builder(RedisServerProcess seed, String namespace) {
        return RedisTimers.builder()
                .redis("127.0.0.1", seed.port())
                .namespace(namespace)
                .queues("q")
                .shards(SHARDS)
                .durability(Durability.replicas(1, Duration.ofMillis(500)))
                .leaseDuration(Duration.ofSeconds(20))
                .fallbackPoll(Duration.ofMillis(500));
    }

    /**
     * Two nodes started from different cluster nodes (a replica among them) schedule 2,000 timers,
     * singly and batched, each write waiting for a replica of the master that took it; the shards
     * land on all three masters; every timer fires exactly once with attempt 1, and no master ever
     * answered MOVED or ASK.
     */
    @Test
    void twoNodesFireEveryTimerExactlyOnceOnTheCluster() throws InterruptedException {
        long seed = Long.getLong("hourglass.seed", 20261126L);
        Random random = new Random(seed);
        List<RedisServerProcess> servers = cluster.nodes();
        try (RedisTimers a = builder(servers.get(0), "once").nodeId("a").build();
                RedisTimers b = builder(servers.get(5), "once").nodeId("b").build()) {
            List<TimerRequest> batch = new ArrayList<>();
            for (int i = 0; i < 1_000; i++) {
                batch.add(TimerRequest.after(
                        "batch-" + i, Duration.ofMillis(500 + random.nextInt(1_500)), ("p" + i).getBytes(UTF_8)));
            }
            a.scheduleAll("q", batch);
            for (int i = 0; i < 1_000; i++) {
                b.schedule("q", "single-" + i, Duration.ofMillis(500 + random.nextInt(1_500)), bytes("s" + i));
            }
            assertThat(a.stats("q").get(TimerState.SCHEDULED) + a.stats("q").get(TimerState.CLAIMED))
                    .as("stored before any handler is registered")
                    .isEqualTo(2_000);
            List<Integer> masters = cluster.masterPorts();
            assertThat(masters).hasSize(3);
            for (int port : masters) {
                try (Jedis jedis = new Jedis("127.0.0.1", port)) {
                    assertThat(jedis.dbSize()).as("keys on master %d", port).isPositive();
                }
            }
            Recorder recorder = new Recorder();
            a.register("q", recorder.forNode("a"));
            b.register("q", recorder.forNode("b"));
            assertThat(recorder.awaitIds(2_000, Duration.ofSeconds(60)))
                    .as("delivered: %d of 2000 (seed %d)", recorder.byId().size(), seed)
                    .isTrue();
            assertThat(Recorder.eventually(
                            () -> a.stats("q").values().stream()
                                            .mapToLong(Long::longValue)
                                            .sum()
                                    == 0,
                            Duration.ofSeconds(30)))
                    .as("every timer acknowledged")
                    .isTrue();
            Map<String, List<Recorder.Seen>> byId = recorder.byId();
            for (int i = 0; i < 1_000; i++) {
                for (String id : List.of("batch-" + i, "single-" + i)) {
                    assertThat(byId.get(id))
                            .as("deliveries of %s (seed %d)", id, seed)
                            .hasSize(1);
                    assertThat(byId.get(id).get(0).attempt()).isEqualTo(1);
                }
                assertThat(byId.get("batch-" + i).get(0).payload()).isEqualTo("p" + i);
            }
            for (int port : masters) {
                try (Jedis jedis = new Jedis("127.0.0.1", port)) {
                    String errors = jedis.info("errorstats");
                    assertThat(errors).as("errors of master %d", port).doesNotContain("MOVED", "ASK");
                }
            }
        }
    }

    /** The shard count lives in one slot; a node that disagrees is refused, whichever node it starts from. */
    @Test
    void aNodeWithAnotherShardCountIsRefusedOnTheCluster() {
        List<RedisServerProcess> servers = cluster.nodes();
        try (RedisTimers first = builder(servers.get(0), "count").build()) {
            for (RedisServerProcess seed : servers) {
                assertThatThrownBy(() -> builder(seed, "count").shards(4).build())
                        .isInstanceOf(RedisTimersException.class)
                        .hasMessageContaining("queue 'q' has 8 shards in Redis")
                        .hasMessageContaining("built with shards(4)");
            }
            builder(servers.get(3), "count").build().close(); // the same count is accepted
            first.schedule("q", "still-works", Duration.ofHours(1), bytes("x"));
            assertThat(first.lookup("q", "still-works")).isPresent();
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(UTF_8);
    }
}
