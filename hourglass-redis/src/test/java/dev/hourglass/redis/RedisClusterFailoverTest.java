package dev.hourglass.redis;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Finding 6, failover: {@code kill -9} of a master of a real local cluster while two nodes schedule
 * (with {@code Durability.replicas(1)}) and fire timers. The replica takes over; schedules that
 * failed meanwhile said "not acknowledged" and succeeded when retried; every acknowledged timer
 * fires.
 */
class RedisClusterFailoverTest {
    private static final int SHARDS = 8;
    private static final int PRODUCERS = 2;
    private static final int PER_PRODUCER = 600;

    @Test
    void noAcknowledgedTimerIsLostWhenAMasterIsKilled() throws Exception {
        long seed = Long.getLong("hourglass.seed", 20261126L);
        try (RedisClusterProcess cluster = RedisClusterProcess.start()) {
            Recorder recorder = new Recorder();
            List<RedisTimers> nodes = new ArrayList<>();
            try {
                for (String name : List.of("a", "b")) {
                    RedisTimers node = RedisTimers.builder()
                            .redis(
                                    "127.0.0.1",
                                    cluster.nodes().get(nodes.size()).port())
                            .namespace("failover")
                            .queues("q")
                            .shards(SHARDS)
                            .nodeId(name)
                            .durability(Durability.replicas(1, Duration.ofMillis(500)))
                            .leaseDuration(Duration.ofSeconds(3))
                            .maxAttempts(50) // a timer whose leases run out during the failover is not dead-lettered
                            .backoff(Duration.ofMillis(100), Duration.ofSeconds(1))
                            .fallbackPoll(Duration.ofMillis(500))
                            .build();
                    node.register("q", recorder.forNode(name));
                    nodes.add(node);
                }
                Set<String> acked = ConcurrentHashMap.newKeySet();
                AtomicInteger refused = new AtomicInteger();
                List<String> refusals = new CopyOnWriteArrayList<>();
                List<Thread> producers = new ArrayList<>();
                for (int t = 0; t < PRODUCERS; t++) {
                    RedisTimers node = nodes.get(t);
                    Random random = new Random(seed + t);
                    String prefix = "p" + t + "-";
                    producers.add(new Thread(() -> produce(node, prefix, random, acked, refused, refusals)));
                }
                producers.forEach(Thread::start);
                assertThat(Recorder.eventually(() -> acked.size() >= 300, Duration.ofSeconds(60)))
                        .as("acknowledged before the kill: %d", acked.size())
                        .isTrue();

                int slot = ShardKeys.of("failover", "q", SHARDS)[0].slot();
                RedisServerProcess victim = cluster.masterOf(slot);
                int ackedAtKill = acked.size();
                int firedAtKill = recorder.byId().size();
                victim.kill();
                long killed = System.nanoTime();
                assertThat(Recorder.eventually(
                                () -> {
                                    try {
                                        return cluster.masterOf(slot) != victim;
                                    } catch (RuntimeException e) {
                                        return false; // no master for the slot yet
                                    }
                                },
                                Duration.ofSeconds(30)))
                        .as("a replica took over slot %d", slot)
                        .isTrue();
                long promotedMillis = (System.nanoTime() - killed) / 1_000_000;
                // back as a replica of the promoted one, so REPLICAS(1) writes to it can be kept again
                victim.restart();
                cluster.awaitReady();
                for (Thread p : producers) {
                    p.join(120_000);
                    assertThat(p.isAlive()).isFalse();
                }
                int all = PRODUCERS * PER_PRODUCER;
                assertThat(acked)
                        .as("acknowledged in the end, retries included")
                        .hasSize(all);
                assertThat(refused.get())
                        .as("schedules refused during the failover (the kill must have hit some)")
                        .isPositive();
                assertThat(refusals).allSatisfy(m -> assertThat(m)
                        .contains("was not acknowledged (it may or may not be stored; scheduling it again"
                                + " is safe)"));

                assertThat(recorder.awaitIds(all, Duration.ofSeconds(60)))
                        .as("fired: %d of %d (seed %d)", recorder.byId().size(), all, seed)
                        .isTrue();
                RedisTimers a = nodes.get(0);
                assertThat(Recorder.eventually(
                                () -> a.stats("q").values().stream()
                                                .mapToLong(Long::longValue)
                                                .sum()
                                        == 0,
                                Duration.ofSeconds(30)))
                        .as("nothing left scheduled, claimed or dead: %s", a.stats("q"))
                        .isTrue();
                Map<String, List<Recorder.Seen>> byId = recorder.byId();
                assertThat(byId.keySet()).containsExactlyInAnyOrderElementsOf(acked);
                Map<Integer, Integer> attempts = new TreeMap<>();
                int twice = 0;
                for (List<Recorder.Seen> seen : byId.values()) {
                    seen.forEach(s -> attempts.merge(s.attempt(), 1, Integer::sum));
                    twice += seen.size() > 1 ? 1 : 0;
                }
                System.out.printf(
                        "RedisClusterFailoverTest: master %d killed with %d acknowledged and %d fired; replica"
                                + " promoted after %d ms; %d schedules refused and retried; deliveries by attempt"
                                + " %s; %d timers delivered more than once%n",
                        victim.port(), ackedAtKill, firedAtKill, promotedMillis, refused.get(), attempts, twice);
            } finally {
                nodes.forEach(RedisTimers::close);
            }
        }
    }

    /**
     * Schedules PER_PRODUCER timers due within 2 s, one after another; a schedule that is not
     * acknowledged is retried (after 100 ms) until it is, for up to 90 s.
     */
    private static void produce(
            RedisTimers node,
            String prefix,
            Random random,
            Set<String> acked,
            AtomicInteger refused,
            List<String> refusals) {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        for (int i = 0; i < PER_PRODUCER; i++) {
            String id = prefix + i;
            Duration delay = Duration.ofMillis(200 + random.nextInt(1_800));
            while (System.nanoTime() < deadline) {
                try {
                    if (i % 2 == 0) { // by delay a script, by due time a MULTI/EXEC
                        node.schedule("q", id, delay, id.getBytes(UTF_8));
                    } else {
                        node.schedule("q", id, Instant.now().plus(delay), id.getBytes(UTF_8));
                    }
                    acked.add(id);
                    break;
                } catch (RedisTimersException e) {
                    refused.incrementAndGet();
                    if (refusals.size() < 100) {
                        refusals.add(e.getMessage());
                    }
                    try {
                        Thread.sleep(100);
                    } catch (InterruptedException interrupted) {
                        return;
                    }
                }
            }
            try {
                Thread.sleep(5); // a steady stream, so the kill lands mid-burst
            } catch (InterruptedException interrupted) {
                return;
            }
        }
    }
}
