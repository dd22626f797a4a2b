package dev.hourglass.redis;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import redis.clients.jedis.Jedis;

/**
 * Finding 1: acknowledged schedules were lost when Redis crashed (appendfsync everysec) and the node
 * never checked the server's settings. Each durability is now checked at start and kept per write,
 * on Redis 7.0 (fsync() verified as appendfsync always) and on Valkey 8 (a Redis 7.2: WAITAOF).
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
    void fsyncIsRefusedOnValkeyWithAppendfsyncNo() {
        try (RedisServerProcess server = RedisServerProcess.start(ServerBinary.VALKEY, "no")) {
            assertThatThrownBy(() -> builder(server).build())
                    .isInstanceOf(RedisTimersException.class)
                    .hasMessageContaining("appendfsync is no, so WAITAOF never sees the AOF fsynced")
                    .hasMessageContaining("set appendfsync everysec or always");
            builder(server).durability(Durability.memory()).build().close();
        }
    }

    @ParameterizedTest
    @EnumSource(ServerBinary.class)
    void fsyncIsRefusedWithoutAof(ServerBinary kind) {
        try (RedisServerProcess server = RedisServerProcess.start(kind, "always", "--appendonly", "no")) {
            String fix =
                    kind == ServerBinary.REDIS ? "set appendonly yes and appendfsync always" : "set appendonly yes,";
            assertThatThrownBy(() -> builder(server).build())
                    .isInstanceOf(RedisTimersException.class)
                    .hasMessageContaining("appendonly is no")
                    .hasMessageContaining(fix);
        }
    }

    @ParameterizedTest
    @EnumSource(ServerBinary.class)
    void anEvictionPolicyThatCanDropTimersIsRefused(ServerBinary kind) {
        try (RedisServerProcess server =
                RedisServerProcess.start(kind, "always", "--maxmemory", "100mb", "--maxmemory-policy", "allkeys-lru")) {
            assertThatThrownBy(() ->
                            builder(server).durability(Durability.memory()).build())
                    .isInstanceOf(RedisTimersException.class)
                    .hasMessageContaining("maxmemory-policy is allkeys-lru")
                    .hasMessageContaining("set maxmemory-policy noeviction");
        }
    }

    @ParameterizedTest
    @EnumSource(ServerBinary.class)
    void replicasAreRefusedWithoutAReplica(ServerBinary kind) {
        try (RedisServerProcess server = RedisServerProcess.start(kind, "always")) {
            assertThatThrownBy(() -> builder(server)
                            .durability(Durability.replicas(1, Duration.ofMillis(500)))
                            .build())
                    .isInstanceOf(RedisTimersException.class)
                    .hasMessageContaining("0 replica(s) online");
        }
    }

    @Test
    void aWeakenedAofPolicyAtRunTimeMakesWritesFailOnRedis70() {
        try (RedisServerProcess server = RedisServerProcess.start("always");
                RedisTimers node = builder(server).build();
                Jedis admin = server.client()) {
            assertThat(version(admin)).isEqualTo("7.0");
            node.schedule("q", "before", Duration.ofHours(1), "b".getBytes(UTF_8));
            admin.configSet("appendfsync", "everysec");
            assertThatThrownBy(() -> node.schedule("q", "after", Duration.ofHours(1), "a".getBytes(UTF_8)))
                    .isInstanceOf(RedisTimersException.class)
                    .hasMessageStartingWith("schedule of 'after' on queue 'q' was not acknowledged")
                    .hasMessageContaining("appendfsync everysec");
        }
    }

    /** WAITAOF makes the server fsync before it answers under everysec; under "no" it never does. */
    @Test
    void onValkeyWaitaofKeepsFsyncUnderEverysecAndWritesFailUnderNo() {
        try (RedisServerProcess server = RedisServerProcess.start(ServerBinary.VALKEY, "always");
                RedisTimers node = builder(server).build();
                Jedis admin = server.client()) {
            assertThat(version(admin)).isEqualTo("7.2");
            admin.configSet("appendfsync", "everysec");
            node.schedule("q", "everysec", Duration.ofHours(1), "e".getBytes(UTF_8));
            admin.configSet("appendfsync", "no");
            assertThatThrownBy(() -> node.schedule("q", "no", Duration.ofHours(1), "n".getBytes(UTF_8)))
                    .isInstanceOf(RedisTimersException.class)
                    .hasMessageStartingWith("schedule of 'no' on queue 'q' was not acknowledged")
                    .hasMessageContaining("the AOF was not fsynced within");
        }
    }

    /**
     * Durability.fsync() sends one WAITAOF per write pipeline on Valkey (Redis 7.2) and never on Redis
     * 7.0, which gets a CONFIG GET instead: 5 schedules, a batch of 1,000 and a cancel are 7 waits.
     */
    @ParameterizedTest
    @EnumSource(ServerBinary.class)
    void fsyncWaitsOncePerWritePipelineWithWaitaofOnlyWhereTheServerHasIt(ServerBinary kind) {
        try (RedisServerProcess server = RedisServerProcess.start(kind, fsyncFor(kind));
                RedisTimers node = builder(server).build();
                Jedis admin = server.client()) {
            admin.configResetStat();
            for (int i = 0; i < 5; i++) {
                node.schedule("q", "one" + i, Duration.ofHours(1), bytes("p"));
            }
            List<TimerRequest> batch = new ArrayList<>();
            for (int i = 0; i < 1_000; i++) {
                batch.add(TimerRequest.after("batch" + i, Duration.ofHours(1), bytes("p")));
            }
            node.scheduleAll("q", batch);
            node.cancel("q", "one0");
            boolean waitAof = kind == ServerBinary.VALKEY;
            assertThat(CommandStats.calls(admin, "waitaof")).as("WAITAOF calls").isEqualTo(waitAof ? 7 : 0);
            assertThat(CommandStats.calls(admin, "config|get"))
                    .as("CONFIG GET calls")
                    .isEqualTo(waitAof ? 0 : 7);
        }
    }

    /**
     * SIGKILL of the server during a burst of schedules; the AOF replay has every acknowledged one.
     * Redis 7.0 needs appendfsync always; Valkey runs with everysec, so WAITAOF alone keeps the
     * promise, and the burst is checked to have used it (and Redis 7.0's not to).
     */
    @ParameterizedTest
    @EnumSource(ServerBinary.class)
    void everyAcknowledgedScheduleSurvivesASigkillOfTheServerMidBurst(ServerBinary kind) throws Exception {
        try (RedisServerProcess server = RedisServerProcess.start(kind, fsyncFor(kind))) {
            Set<String> acked;
            long[] waitAofCalls = new long[1];
            try (RedisTimers node = builder(server).build()) {
                acked = burstUntilKilled(node, () -> {
                    try (Jedis admin = server.client()) {
                        waitAofCalls[0] = CommandStats.calls(admin, "waitaof");
                    }
                    server.kill();
                });
            }
            if (kind == ServerBinary.VALKEY) {
                assertThat(waitAofCalls[0]).as("WAITAOF calls before the kill").isPositive();
            } else {
                assertThat(waitAofCalls[0]).as("WAITAOF calls before the kill").isZero();
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
     * Schedules from 4 threads (singly and in batches, by delay and by due time) and kills Redis
     * once 300 are acknowledged (the producers are still going).
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
                        boolean byDelay = thread % 2 == 0; // a script; by due time a MULTI/EXEC
                        if (thread < 2) {
                            List<TimerRequest> batch = new ArrayList<>();
                            for (int j = 0; j < 100; j++) {
                                String id = "b" + thread + "-" + i + "-" + j;
                                batch.add(
                                        byDelay
                                                ? TimerRequest.after(id, Duration.ofHours(1), bytes("p"))
                                                : TimerRequest.at(
                                                        id, Instant.now().plusSeconds(3_600), bytes("p")));
                            }
                            node.scheduleAll("q", batch);
                            batch.forEach(r -> acked.add(r.id()));
                        } else {
                            String id = "s" + thread + "-" + i;
                            if (byDelay) {
                                node.schedule("q", id, Duration.ofHours(1), bytes("p"));
                            } else {
                                node.schedule("q", id, Instant.now().plusSeconds(3_600), bytes("p"));
                            }
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
        List<String> forms = List.of("b0-", "b1-", "s2-", "s3-");
        assertThat(Recorder.eventually(
                        () -> acked.size() >= 300
                                && forms.stream().allMatch(f -> acked.stream().anyMatch(id -> id.startsWith(f))),
                        Duration.ofSeconds(30)))
                .as("acknowledged before the kill, of every form: %d", acked.size())
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

    /** Returns the major.minor of redis_version: Valkey 8.0 reports 7.2. */
    private static String version(Jedis jedis) {
        String v = field(jedis.info("server"), "redis_version");
        return v.substring(0, v.lastIndexOf('.'));
    }

    private static String field(String info, String name) {
        return info.lines()
                .filter(l -> l.startsWith(name + ":"))
                .map(l -> l.substring(name.length() + 1).trim())
                .findFirst()
                .orElse("");
    }

    /** Redis 7.0 keeps fsync() only with appendfsync always; on Valkey WAITAOF alone must keep it. */
    private static String fsyncFor(ServerBinary kind) {
        return kind == ServerBinary.REDIS ? "always" : "everysec";
    }

    private static byte[] bytes(String s) {
        return s.getBytes(UTF_8);
    }
}
