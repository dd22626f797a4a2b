package dev.hourglass.redis;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * The claim linger: a timer due later is claimed that long after its due time (so that the timers
 * due meanwhile come in the same claim), a timer due at once is claimed at once, and bad values are
 * refused with the argument and the value.
 */
class ClaimLingerTest {
    @Test
    void aLaterTimerWaitsTheLingerAndATimerDueAtOnceDoesNot() throws InterruptedException {
        try (RedisServerProcess server = RedisServerProcess.start();
                RedisTimers node = RedisTimers.builder()
                        .redis("127.0.0.1", server.port())
                        .namespace("linger")
                        .queues("q")
                        .durability(Durability.memory())
                        .claimLinger(Duration.ofSeconds(1))
                        .fallbackPoll(Duration.ofSeconds(5)) // the linger, not the poll, claims "later"
                        .build()) {
            Map<String, Long> firedAt = new ConcurrentHashMap<>();
            CountDownLatch both = new CountDownLatch(2);
            node.register("q", d -> {
                firedAt.put(d.id(), System.nanoTime());
                both.countDown();
            });
            // Hints come through the wake-up subscription: wait until it is in place (a slow start,
            // as on Java 25 in CI, left the timer due at once to the 1 s fallback poll).
            try (Jedis admin = server.client()) {
                assertThat(Recorder.eventually(() -> !admin.pubsubChannels().isEmpty(), Duration.ofSeconds(10)))
                        .as("the node subscribed to its wake-up channel")
                        .isTrue();
            }
            long start = System.nanoTime();
            // "later" is due 600 ms on: "now"'s claim, which takes every timer due by then, must come
            // first; at 100 ms, a claim slowed that much on a loaded machine would take "later" along.
            node.schedule("q", "later", Duration.ofMillis(600), "p".getBytes(UTF_8));
            node.schedule("q", "now", Duration.ZERO, "p".getBytes(UTF_8));
            assertThat(both.await(10, TimeUnit.SECONDS)).isTrue();
            long nowMillis = TimeUnit.NANOSECONDS.toMillis(firedAt.get("now") - start);
            long laterMillis = TimeUnit.NANOSECONDS.toMillis(firedAt.get("later") - start);
            assertThat(nowMillis)
                    .as("ms to the timer due at once (before the later one is due)")
                    .isLessThan(600);
            assertThat(laterMillis).as("ms to the timer due in 600 ms").isGreaterThanOrEqualTo(1_600);
        }
    }

    @Test
    void badLingersAreRefused() {
        RedisTimersBuilder b = RedisTimers.builder();
        assertThatThrownBy(() -> b.claimLinger(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("claimLinger must be in 0..1 s: PT-0.001S");
        assertThatThrownBy(() -> b.claimLinger(Duration.ofMillis(1_001)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("claimLinger must be in 0..1 s: PT1.001S");
        assertThatThrownBy(() -> b.claimLinger(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("claimLinger");
        b.claimLinger(Duration.ZERO).claimLinger(Duration.ofSeconds(1)); // the bounds themselves are fine
    }
}
