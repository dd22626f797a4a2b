package dev.hourglass.redis;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/** Three nodes in one JVM, each with its own pool, share 10,000 timers: each fires exactly once. */
class ManyNodesTest {
    private static final int TIMERS = 10_000;
    private static final int SHARDS = 4;

    @Test
    void threeNodesFireTenThousandTimersEachExactlyOnce() throws InterruptedException {
        long seed = Long.getLong("hourglass.seed", 20261122L);
        Random random = new Random(seed);
        try (RedisServerProcess server = RedisServerProcess.start("everysec")) {
            Recorder recorder = new Recorder();
            List<RedisTimers> nodes = new ArrayList<>();
            try {
                for (int n = 0; n < 3; n++) {
                    RedisTimers node = RedisTimers.builder()
                            .redis("127.0.0.1", server.port())
                            .namespace("many")
                            .durability(Durability.memory()) // everysec: fsync() would be refused
                            .queues("q")
                            .shards(SHARDS)
                            .nodeId("node-" + n)
                            .batchSize(200)
                            .leaseDuration(Duration.ofSeconds(20))
                            .fallbackPoll(Duration.ofMillis(500))
                            .build();
                    node.register("q", recorder.forNode("node-" + n));
                    nodes.add(node);
                }
                List<TimerRequest> requests = new ArrayList<>();
                for (int i = 0; i < TIMERS; i++) {
                    requests.add(TimerRequest.after(
                            "t" + i, Duration.ofMillis(1_000 + random.nextInt(1_000)), ("p" + i).getBytes(UTF_8)));
                }
                nodes.get(0).scheduleAll("q", requests);

                assertThat(recorder.awaitIds(TIMERS, Duration.ofSeconds(60)))
                        .as("all delivered (seed %d)", seed)
                        .isTrue();
                // every timer acknowledged: no lease is left that could run out and deliver again
                try (Jedis jedis = server.client()) {
                    assertThat(Recorder.eventually(() -> pending(jedis) == 0, Duration.ofSeconds(30)))
                            .isTrue();
                }
                Map<String, List<Recorder.Seen>> byId = recorder.byId();
                assertThat(byId).hasSize(TIMERS);
                for (int i = 0; i < TIMERS; i++) {
                    List<Recorder.Seen> seen = byId.get("t" + i);
                    assertThat(seen).as("deliveries of t%d (seed %d)", i, seed).hasSize(1);
                    assertThat(seen.get(0).attempt()).isEqualTo(1);
                    assertThat(seen.get(0).payload()).isEqualTo("p" + i);
                }
                Map<String, Long> perNode = byId.values().stream()
                        .collect(Collectors.groupingBy(s -> s.get(0).node(), Collectors.counting()));
                System.out.println("ManyNodesTest: deliveries per node " + perNode);
            } finally {
                nodes.forEach(RedisTimers::close);
            }
        }
    }

    private static long pending(Jedis jedis) {
        long n = 0;
        for (ShardKeys shard : ShardKeys.of("many", "q", SHARDS)) {
            List<byte[]> keys = shard.keys(); // due, leases, dead, payload, meta, seq
            n += jedis.zcard(keys.get(0)) + jedis.zcard(keys.get(1)) + jedis.hlen(keys.get(4));
        }
        return n;
    }
}
