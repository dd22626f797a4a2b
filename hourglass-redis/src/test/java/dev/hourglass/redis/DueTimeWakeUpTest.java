package dev.hourglass.redis;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPubSub;

/**
 * The wake-up that a schedule by due time (a MULTI/EXEC, no script) publishes once Redis has
 * answered: only when one of its timers is now the shard's earliest, as "delay queue shard" with the
 * delay on Redis's clock, and for an id requested twice in a batch, the later request's.
 */
class DueTimeWakeUpTest {
    @Test
    void theShardsNewEarliestTimerIsAnnouncedWithItsDelay() throws InterruptedException {
        BlockingQueue<String> messages = new LinkedBlockingQueue<>();
        JedisPubSub listener = new JedisPubSub() {
            @Override
            public void onMessage(String channel, String message) {
                messages.add(message);
            }
        };
        try (RedisServerProcess server = RedisServerProcess.start("everysec");
                Jedis subscriber = server.client();
                RedisTimers node = RedisTimers.builder()
                        .redis("127.0.0.1", server.port())
                        .namespace("wake")
                        .queues("q")
                        .durability(Durability.memory())
                        .build()) {
            Thread listening = new Thread(() -> subscriber.subscribe(listener, "wake:wake"));
            listening.start();
            assertThat(Recorder.eventually(listener::isSubscribed, Duration.ofSeconds(10)))
                    .isTrue();
            byte[] p = "p".getBytes(UTF_8);

            Instant due = Instant.now().plusSeconds(30);
            node.scheduleAll(
                    "q",
                    List.of(
                            TimerRequest.at("a", due.plusSeconds(3_600), p),
                            TimerRequest.at("b", due.plusSeconds(60), p),
                            TimerRequest.at("a", due, p)));
            assertThat(delayOf(messages.poll(10, TimeUnit.SECONDS)))
                    .as("the later request for the earliest id, 30 s ahead, less the time it took")
                    .isBetween(29_000L, 30_000L);

            node.schedule("q", "not-earliest", due.plusSeconds(10), p); // publishes nothing
            node.schedule("q", "earliest", Instant.now().plusSeconds(5), p);
            assertThat(delayOf(messages.poll(10, TimeUnit.SECONDS)))
                    .as("the next message is the new earliest's: the one before published none")
                    .isBetween(4_000L, 5_000L);
            listener.unsubscribe();
            listening.join();
        }
    }

    /** The delay of a wake-up message, after checking its shape: "delay queue shard". */
    private static long delayOf(String message) {
        assertThat(message).as("a wake-up message").isNotNull().matches("\\d+ q 0");
        return Long.parseLong(message.substring(0, message.indexOf(' ')));
    }
}
