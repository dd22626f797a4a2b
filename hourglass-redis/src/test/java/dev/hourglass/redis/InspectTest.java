package dev.hourglass.redis;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** The inspect API: counts by state and lists of scheduled, claimed and dead timers. */
class InspectTest {
    @Test
    void statsCountAndListShowTimersByState() throws InterruptedException {
        CountDownLatch release = new CountDownLatch(1);
        try (RedisServerProcess server = RedisServerProcess.start();
                RedisTimers node = RedisTimers.builder()
                        .redis("127.0.0.1", server.port())
                        .namespace("inspect")
                        .queues("q")
                        .shards(3)
                        .nodeId("inspector")
                        .maxAttempts(1)
                        .fallbackPoll(Duration.ofMillis(100))
                        .build()) {
            try {
                for (int i = 0; i < 3; i++) {
                    node.schedule("q", "later" + i, Duration.ofHours(1 + i), "l".getBytes(UTF_8));
                }
                node.register("q", d -> {
                    if (d.id().equals("held")) {
                        Recorder.awaitUninterruptibly(release);
                    } else {
                        throw new IllegalStateException("fails: dead after its only attempt");
                    }
                });
                node.schedule("q", "held", Duration.ZERO, "h".getBytes(UTF_8));
                node.schedule("q", "failing", Duration.ZERO, "f".getBytes(UTF_8));
                assertThat(Recorder.eventually(
                                () -> node.stats("q")
                                        .equals(Map.of(
                                                TimerState.SCHEDULED, 3L, TimerState.CLAIMED, 1L, TimerState.DEAD, 1L)),
                                Duration.ofSeconds(20)))
                        .as("stats now %s", node.stats("q"))
                        .isTrue();
                assertThat(node.list("q", TimerState.SCHEDULED, 10))
                        .extracting(TimerSnapshot::id)
                        .containsExactlyInAnyOrder("later0", "later1", "later2");
                assertThat(node.list("q", TimerState.SCHEDULED, 2)).hasSize(2);
                assertThat(node.list("q", TimerState.CLAIMED, 10))
                        .singleElement()
                        .satisfies(s -> {
                            assertThat(s.id()).isEqualTo("held");
                            assertThat(s.owner()).contains("inspector");
                        });
                assertThat(node.list("q", TimerState.DEAD, 10))
                        .extracting(TimerSnapshot::id)
                        .containsExactly("failing");
                assertThat(node.deadLetters("q", 10))
                        .extracting(TimerSnapshot::id)
                        .containsExactly("failing");
            } finally {
                release.countDown();
            }
        }
    }
}
