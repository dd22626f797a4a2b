package dev.hourglass.redis;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
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
        for (RedisServerProcess server : servers) {
            try (Jedis jedis = server.client()) {
                jedis.configResetStat(); // errorstats of this test only
            }
        }
        try (RedisTimers a = builder(servers.get(0), "once").nodeId("a").build();
                RedisTimers b = builder(servers.get(5), "once").nodeId("b").build()) {
            // half by delay (scripts), half by due time (MULTI/EXEC), each half in a batch of its own
            List<TimerRequest> byDelay = new ArrayList<>();
            List<TimerRequest> byDueTime = new ArrayList<>();
            for (int i = 0; i < 1_000; i++) {
                Duration delay = Duration.ofMillis(500 + random.nextInt(1_500));
                byte[] payload = ("p" + i).getBytes(UTF_8);
                if (i % 2 == 0) {
                    byDelay.add(TimerRequest.after("batch-" + i, delay, payload));
                } else {
                    byDueTime.add(TimerRequest.at("batch-" + i, Instant.now().plus(delay), payload));
                }
            }
            a.scheduleAll("q", byDelay);
            a.scheduleAll("q", byDueTime);
            for (int i = 0; i < 1_000; i++) {
                Duration delay = Duration.ofMillis(500 + random.nextInt(1_500));
                if (i % 2 == 0) {
                    b.schedule("q", "single-" + i, delay, bytes("s" + i));
                } else {
                    b.schedule("q", "single-" + i, Instant.now().plus(delay), bytes("s" + i));
                }
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

    /**
     * The checks at start run on every master, not only on the node a RedisTimers node starts from:
     * an eviction policy that can drop timers on one master is refused, and so is a durability
     * that needs more replicas than a master has.
     */
    @Test
    void everyMasterIsCheckedAtStart() {
        List<Integer> masters = cluster.masterPorts();
        RedisServerProcess seed = cluster.nodes().stream()
                .filter(n -> n.port() == masters.get(0))
                .findFirst()
                .orElseThrow();
        int other = masters.get(2);
        try (Jedis jedis = new Jedis("127.0.0.1", other)) {
            jedis.configSet("maxmemory-policy", "allkeys-lru");
            try {
                assertThatThrownBy(() -> builder(seed, "checked").build())
                        .isInstanceOf(RedisTimersException.class)
                        .hasMessageContaining("Redis at 127.0.0.1:" + other)
                        .hasMessageContaining("maxmemory-policy is allkeys-lru");
            } finally {
                jedis.configSet("maxmemory-policy", "noeviction");
            }
        }
        assertThatThrownBy(() -> builder(seed, "checked")
                        .durability(Durability.replicas(2, Duration.ofMillis(500)))
                        .build())
                .isInstanceOf(RedisTimersException.class)
                .hasMessageContaining("1 replica(s) online");
        builder(seed, "checked").build().close();
    }

    /**
     * A slot that migrates while a node writes: the old master answers ASK and the node sends the
     * script (or, by due time, the MULTI/EXEC) to the new one after ASKING, which answers TRYAGAIN
     * (Redis runs no multi-key command or transaction on a slot whose keys are split between two
     * masters): the schedule is refused as not acknowledged, and nothing is written. Once the migration ends the node's slot map is stale, the
     * old master answers MOVED and the node reads the map again: the retry succeeds, and the caller
     * never sees the MOVED.
     */
    @ParameterizedTest(name = "by due time {0}")
    @ValueSource(booleans = {false, true})
    void askAndMovedRedirectionsAreFollowed(boolean byDueTime) throws InterruptedException {
        String namespace = byDueTime ? "moving-at" : "moving";
        int slot = ShardKeys.of(namespace, "q", 1)[0].slot();
        RedisServerProcess source = cluster.masterOf(slot);
        int target = cluster.masterPorts().stream()
                .filter(p -> p != source.port())
                .findFirst()
                .orElseThrow();
        try (RedisTimers node = builder(source, namespace).shards(1).build();
                Jedis from = source.client();
                Jedis to = new Jedis("127.0.0.1", target)) {
            from.configResetStat();
            to.clusterSetSlotImporting(slot, from.clusterMyId());
            from.clusterSetSlotMigrating(slot, to.clusterMyId());
            to.configResetStat();
            assertThatThrownBy(() -> schedule(node, byDueTime))
                    .isInstanceOf(RedisTimersException.class)
                    .hasMessageContaining(
                            "was not acknowledged (it may or may not be stored; scheduling it again is" + " safe)")
                    .hasRootCauseMessage("TRYAGAIN Multiple keys request during rehashing of slot");
            assertThat(from.info("errorstats")).as("the source redirected").contains("errorstat_ASK");
            assertThat(to.info("errorstats")).as("the target was asked").contains("errorstat_TRYAGAIN");
            assertThat(from.clusterCountKeysInSlot(slot) + to.clusterCountKeysInSlot(slot))
                    .isZero();

            to.clusterSetSlotNode(slot, to.clusterMyId());
            from.clusterSetSlotNode(slot, to.clusterMyId());
            assertThat(Recorder.eventually(
                            () -> cluster.nodes().stream()
                                    .filter(RedisServerProcess::isAlive)
                                    .allMatch(n -> {
                                        try (Jedis j = n.client()) {
                                            return ownsSlot(j.clusterNodes(), target, slot);
                                        }
                                    }),
                            Duration.ofSeconds(30)))
                    .as("every node sees slot %d on %d", slot, target)
                    .isTrue();
            schedule(node, byDueTime);
            assertThat(from.info("errorstats"))
                    .as("the stale map was corrected")
                    .contains("errorstat_MOVED");
            assertThat(node.lookup("q", "retried")).isPresent();
            assertThat(to.clusterCountKeysInSlot(slot)).isPositive();
        }
    }

    /** Schedules "retried" an hour ahead, by delay (a script) or by due time (a MULTI/EXEC). */
    private static void schedule(RedisTimers node, boolean byDueTime) {
        if (byDueTime) {
            node.schedule("q", "retried", Instant.now().plusSeconds(3_600), bytes("r"));
        } else {
            node.schedule("q", "retried", Duration.ofHours(1), bytes("r"));
        }
    }

    /** Whether a CLUSTER NODES text gives a slot to the node on a port. */
    private static boolean ownsSlot(String clusterNodes, int port, int slot) {
        for (String line : clusterNodes.split("\n")) {
            String[] f = line.trim().split(" ");
            if (f.length < 9 || !f[1].startsWith("127.0.0.1:" + port + "@")) {
                continue;
            }
            for (int i = 8; i < f.length; i++) {
                String[] range = f[i].split("-");
                if (range[0].startsWith("[")) {
                    continue;
                }
                int lo = Integer.parseInt(range[0]);
                int hi = range.length > 1 ? Integer.parseInt(range[1]) : lo;
                if (slot >= lo && slot <= hi) {
                    return true;
                }
            }
        }
        return false;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(UTF_8);
    }
}
