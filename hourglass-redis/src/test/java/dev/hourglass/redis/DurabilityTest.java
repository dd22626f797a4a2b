package dev.hourglass.redis;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * Finding 1: acknowledged schedules were lost when Redis crashed (appendfsync everysec) and the node
 * never checked the server's settings. Each durability is now checked at start and kept per write.
 */
class DurabilityTest {
    private static RedisTimersBuilder builder(RedisServerProcess server) {
        return RedisTimers.builder()
                .redis("127.0.0.1", server.port())
                .namespace("dur")
                .queues("q")
                .shards(4);
    }

    @Test
    void fsyncIsRefusedOnRedis70WithAppendfsyncEverysec() {
        try (RedisServerProcess server = RedisServerProcess.start("everysec")) {
            assertThatThrownBy(() -> builder(server).build())
                    .isInstanceOf(RedisTimersException.class)
                    .hasMessageContaining("appendfsync is everysec on Redis 7.0")
                    .hasMessageContaining("set appendfsync always");
            builder(server).durability(Durability.memory()).build().close();
        }
    }

    @Test
    void fsyncIsRefusedWithoutAof() {
        try (RedisServerProcess server = RedisServerProcess.start("always", "--appendonly", "no")) {
            assertThatThrownBy(() -> builder(server).build())
                    .isInstanceOf(RedisTimersException.class)
                    .hasMessageContaining("appendonly is no")
                    .hasMessageContaining("set appendonly yes");
        }
    }

    @Test
    void anEvictionPolicyThatCanDropTimersIsRefused() {
        try (RedisServerProcess server =
                RedisServerProcess.start("always", "--maxmemory", "100mb", "--maxmemory-policy", "allkeys-lru")) {
            assertThatThrownBy(() ->
                            builder(server).durability(Durability.memory()).build())
                    .isInstanceOf(RedisTimersException.class)
                    .hasMessageContaining("maxmemory-policy is allkeys-lru")
                    .hasMessageContaining("set maxmemory-policy noeviction");
        }
    }

    @Test
    void replicasAreRefusedWithoutAReplica() {
        try (RedisServerProcess server = RedisServerProcess.start("always")) {
            assertThatThrownBy(() -> builder(server)
                            .durability(Durability.replicas(1, Duration.ofMillis(500)))
                            .build())
                    .isInstanceOf(RedisTimersException.class)
                    .hasMessageContaining("0 replica(s) online");
        }
    }

    @Test
    void aWeakenedAofPolicyAtRunTimeMakesWritesFailOnRedisBefore72() {
        try (RedisServerProcess server = RedisServerProcess.start("always");
                RedisTimers node = builder(server).build();
                Jedis admin = server.client()) {
            node.schedule("q", "before", Duration.ofHours(1), "b".getBytes(UTF_8));
            admin.configSet("appendfsync", "everysec");
            if (version(admin) < 72) {
                assertThatThrownBy(() -> node.schedule("q", "after", Duration.ofHours(1), "a".getBytes(UTF_8)))
                        .isInstanceOf(RedisTimersException.class)
                        .hasMessageStartingWith("schedule of 'after' on queue 'q' was not acknowledged")
                        .hasMessageContaining("appendfsync everysec");
            } else { // WAITAOF waits for the fsync whatever the policy
                node.schedule("q", "after", Duration.ofHours(1), "a".getBytes(UTF_8));
            }
        }
    }

    /** SIGKILL of redis-server during a burst of schedules; the AOF replay has every acknowledged one. */
    @Test
    void everyAcknowledgedScheduleSurvivesASigkillOfRedisMidBurst() throws Exception {
        try (RedisServerProcess server = RedisServerProcess.start("always")) {
            Set<String> acked;
            try (RedisTimers node = builder(server).build()) {
                acked = burstUntilKilled(node, server::kill);
            }
            server.restart();
            assertMissing(server, acked);
        }
    }

    /** SIGKILL of the master during a burst; its replica, promoted, has every acknowledged schedule. */
    @Test
    void everyAcknowledgedScheduleSurvivesAFailoverWithReplicas() throws Exception {
        try (RedisServerProcess master =
                        RedisServerProcess.start("everysec", "--appendonly", "no", "--repl-diskless-sync-delay", "0");
                RedisServerProcess replica = RedisServerProcess.start("everysec", "--appendonly", "no")) {
            try (Jedis r = replica.client()) {
                r.replicaof("127.0.0.1", master.port());
            }
            try (Jedis m = master.client()) {
                assertThat(Recorder.eventually(
                                () -> m.info("replication").contains("state=online"), Duration.ofSeconds(20)))
                        .isTrue();
            }
            Set<String> acked;
            try (RedisTimers node = builder(master)
                    .durability(Durability.replicas(1, Duration.ofMillis(500)))
                    .build()) {
                acked = burstUntilKilled(node, master::kill);
            }
            try (Jedis r = replica.client()) {
                r.replicaofNoOne();
            }
            assertMissing(replica, acked);
        }
    }

    /**
     * Schedules from 4 threads (singly and in batches) and kills Redis once 300 are acknowledged
     * (the producers are still going).
     */
    private static Set<String> burstUntilKilled(RedisTimers node, Runnable kill) throws InterruptedException {
        Set<String> acked = ConcurrentHashMap.newKeySet();
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> producers = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            int thread = t;
            producers.add(new Thread(() -> {
                for (int i = 0; !stop.get(); i++) {
                    try {
                        if (thread == 0) {
                            List<TimerRequest> batch = new ArrayList<>();
                            for (int j = 0; j < 100; j++) {
                                batch.add(TimerRequest.after("b" + i + "-" + j, Duration.ofHours(1), bytes("p")));
                            }
                            node.scheduleAll("q", batch);
                            batch.forEach(r -> acked.add(r.id()));
                        } else {
                            String id = "s" + thread + "-" + i;
                            node.schedule("q", id, Duration.ofHours(1), bytes("p"));
                            acked.add(id);
                        }
                    } catch (RedisTimersException e) {
                        // not acknowledged (a replica slower than the wait, or Redis gone): not
                        // counted; keep going until the kill stops the burst
                    }
                }
            }));
        }
        producers.forEach(Thread::start);
        assertThat(Recorder.eventually(() -> acked.size() >= 300, Duration.ofSeconds(30)))
                .as("acknowledged before the kill: %d", acked.size())
                .isTrue();
        kill.run();
        stop.set(true);
        for (Thread p : producers) {
            p.join();
        }
        return acked;
    }

    private static void assertMissing(RedisServerProcess server, Set<String> acked) {
        List<String> missing = new ArrayList<>();
        try (RedisTimers reader =
                builder(server).durability(Durability.memory()).build()) {
            for (String id : acked) {
                if (reader.lookup("q", id).isEmpty()) {
                    missing.add(id);
                }
            }
        }
        assertThat(missing).as("acknowledged (%d) but missing", acked.size()).isEmpty();
    }

    private static int version(Jedis jedis) {
        String v = jedis.info("server")
                .lines()
                .filter(l -> l.startsWith("redis_version:"))
                .findFirst()
                .orElseThrow();
        String[] parts = v.substring("redis_version:".length()).trim().split("\\.");
        return Integer.parseInt(parts[0]) * 10 + Integer.parseInt(parts[1]);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(UTF_8);
    }
}
