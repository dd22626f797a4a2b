package dev.hourglass.redis;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * Finding 7: every finished delivery started a claim pass over all shards, ~17 claim scripts per
 * fired timer at a steady rate. Claims are now driven by what is due: a pass claims only the shards
 * whose earliest due time (or a wake-up message) says they have work.
 */
class ClaimCostTest {
    @Test
    void claimScriptsPerFiredTimerStayNearOneAtASteadyRateOverEightShards() throws InterruptedException {
        int rate = 500;
        int total = 1_000;
        try (RedisServerProcess server = RedisServerProcess.start("everysec");
                Jedis admin = server.client();
                RedisTimers node = RedisTimers.builder()
                        .redis("127.0.0.1", server.port())
                        .namespace("cost")
                        .queues("q")
                        .shards(8)
                        .durability(Durability.memory())
                        .build()) {
            Recorder recorder = new Recorder();
            node.register("q", recorder);
            Thread.sleep(200); // the first passes of the node are not the subject
            admin.configResetStat();
            long start = System.nanoTime();
            for (int i = 0; i < total; i++) {
                long wait = start + TimeUnit.SECONDS.toNanos(i) / rate - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait); // a steady rate, not a burst
                }
                node.schedule("q", "t" + i, Duration.ofMillis(300), "p".getBytes(UTF_8));
            }
            assertThat(recorder.awaitIds(total, Duration.ofSeconds(30))).isTrue();
            assertThat(Recorder.eventually(
                            () -> node.lookup("q", "t" + (total - 1)).isEmpty(), Duration.ofSeconds(10)))
                    .isTrue();
            long scripts = admin.info("commandstats")
                    .lines()
                    .filter(l -> l.startsWith("cmdstat_evalsha:"))
                    .mapToLong(l -> Long.parseLong(l.replaceAll("^cmdstat_evalsha:calls=(\\d+),.*", "$1")))
                    .sum();
            double claimsPerTimer = (scripts - 2.0 * total) / total; // less a schedule and an ack each
            System.out.println("claim scripts per fired timer: " + claimsPerTimer);
            assertThat(claimsPerTimer)
                    .as("claim (and heartbeat) scripts per fired timer; %d scripts in all", scripts)
                    .isLessThan(2.0);
        }
    }

    private static long held(Jedis admin) {
        long n = 0;
        for (ShardKeys shard : ShardKeys.of("cost", "q", 8)) {
            n += admin.zcard(shard.stateKey(TimerState.SCHEDULED)) + admin.zcard(shard.stateKey(TimerState.CLAIMED));
        }
        return n;
    }
}
