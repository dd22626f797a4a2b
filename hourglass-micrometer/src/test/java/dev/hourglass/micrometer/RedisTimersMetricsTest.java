package dev.hourglass.micrometer;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hourglass.redis.RedisServerProcess;
import dev.hourglass.redis.RedisTimers;
import dev.hourglass.redis.TimerState;
import io.micrometer.core.instrument.Tags;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * A Redis timers node's meters in a real Prometheus scrape, against a real redis-server (started as
 * hourglass-redis's tests start theirs; without one the test fails, it never skips).
 */
class RedisTimersMetricsTest {

    private static final Duration AWAIT = Duration.ofSeconds(20);
    private static RedisServerProcess server;

    private final Scrape scrape = new Scrape();
    private final CountDownLatch release = new CountDownLatch(1);
    private RedisTimers node;

    @BeforeAll
    static void startRedis() {
        server = RedisServerProcess.start();
    }

    @AfterAll
    static void stopRedis() {
        server.close();
    }

    @AfterEach
    void closeNode() {
        release.countDown();
        if (node != null) {
            node.close();
        }
    }

    @Test
    void aScrapeShowsWhatTheNodeDid() throws InterruptedException {
        node = RedisTimers.builder()
                .redis("127.0.0.1", server.port())
                .namespace("metrics")
                .queues("orders")
                .shards(2)
                .maxAttempts(2)
                .backoff(Duration.ofMillis(20), Duration.ofMillis(20))
                .fallbackPoll(Duration.ofMillis(200))
                .build();
        RedisTimersMetrics.of(node, "orders-node", Tags.of("region", "eu")).bindTo(scrape.registry);
        byte[] payload = "x".getBytes(UTF_8);
        node.schedule("orders", "paid", Duration.ZERO, payload);
        node.schedule("orders", "broken", Duration.ZERO, payload);
        // Due five seconds ago by Redis's clock: claimed with a lag of at least that much.
        node.schedule("orders", "slow", Instant.ofEpochMilli(redisMillis() - 5_000), payload);
        node.register("orders", d -> {
            if (d.id().equals("broken")) {
                throw new IllegalStateException("failing on purpose (expected in this test)");
            }
            if (d.id().equals("slow")) {
                awaitUninterruptibly(release);
            }
        });
        await(() -> node.nodeStats().dead() == 1 && node.nodeStats().inFlight() == 1);
        await(() -> node.lookup("orders", "paid").isEmpty());
        assertThat(node.lookup("orders", "broken").orElseThrow().state()).isEqualTo(TimerState.DEAD);

        List<String> samples = scrape.samples("hourglass_redis_");
        String tags = "{name=\"orders-node\",region=\"eu\"}";
        assertThat(samples)
                .contains(
                        "hourglass_redis_dead_total" + tags + " 1.0",
                        "hourglass_redis_fired_total" + tags + " 4.0",
                        "hourglass_redis_in_flight" + tags + " 1.0",
                        "hourglass_redis_lag_seconds_count" + tags + " 4",
                        "hourglass_redis_retried_total" + tags + " 1.0",
                        "hourglass_redis_scheduled_total" + tags + " 3.0");
        assertThat(samples).hasSize(8);
        // "slow" was claimed at least 5 s late, the others within moments (AWAIT bounds them all).
        assertThat(value(samples, "hourglass_redis_lag_max_seconds" + tags)).isBetween(5.0, 5.0 + AWAIT.toSeconds());
        assertThat(value(samples, "hourglass_redis_lag_seconds_sum" + tags))
                .isBetween(5.0, 5.0 + 4 * AWAIT.toSeconds());

        release.countDown();
        await(() -> node.nodeStats().inFlight() == 0);
        assertThat(scrape.samples("hourglass_redis_in_flight"))
                .containsExactly("hourglass_redis_in_flight" + tags + " 0.0");
    }

    @Test
    void refusesBadInputNamingTheArgument() {
        assertThatThrownBy(() -> RedisTimersMetrics.of(null, "a", Tags.empty())).hasMessage("node");
    }

    private static double value(List<String> samples, String series) {
        return samples.stream()
                .filter(s -> s.startsWith(series + " "))
                .mapToDouble(s -> Double.parseDouble(s.substring(series.length() + 1)))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + series + " in " + samples));
    }

    private static long redisMillis() {
        try (Jedis jedis = new Jedis("127.0.0.1", server.port())) {
            List<String> time = jedis.time();
            return Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
        }
    }

    /** Polls state another process and other threads change; there is nothing to wait on. */
    private static void await(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + AWAIT.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("waited %s", AWAIT).isNegative();
            Thread.sleep(20);
        }
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                if (latch.await(AWAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                    break;
                }
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
