package dev.hourglass.redis;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code scheduleAll} sends the timers of a shard in one script call per 200: every timer is
 * stored with its own due time and payload, of two requests for one id the later wins, an id that
 * was already scheduled is replaced, and timers due soon are fired by a node (the batch's wake-up).
 */
class ScheduleAllTest {
    @Test
    void aBatchStoresEveryTimerAndTheLaterRequestForAnIdWins() throws InterruptedException {
        try (RedisServerProcess server = RedisServerProcess.start();
                RedisTimers node = RedisTimers.builder()
                        .redis("127.0.0.1", server.port())
                        .namespace("all")
                        .queues("q", "soon")
                        .shards(3)
                        .durability(Durability.memory())
                        .build()) {
            Instant base = Instant.parse("2100-01-01T00:00:00Z");
            node.schedule("q", "t7", base, bytes("replaced"));
            List<TimerRequest> requests = new ArrayList<>();
            for (int i = 0; i < 450; i++) { // more than one call's 200 on some shard
                requests.add(TimerRequest.at("t" + i, base.plusMillis(i), bytes("p" + i)));
            }
            requests.add(TimerRequest.at("t5", base.plusSeconds(60), bytes("later")));
            node.scheduleAll("q", requests);

            for (int i = 0; i < 450; i++) {
                String id = "t" + i;
                Instant due = i == 5 ? base.plusSeconds(60) : base.plusMillis(i);
                String payload = i == 5 ? "later" : "p" + i;
                assertThat(node.lookup("q", id)).as(id).hasValueSatisfying(s -> {
                    assertThat(s.dueTime()).isEqualTo(due);
                    assertThat(s.payloadAsString()).isEqualTo(payload);
                    assertThat(s.state()).isEqualTo(TimerState.SCHEDULED);
                    assertThat(s.attempts()).isZero();
                });
            }
            assertThat(node.stats("q").get(TimerState.SCHEDULED)).isEqualTo(450L);

            Recorder recorder = new Recorder();
            node.register("soon", recorder);
            Thread.sleep(300); // the node's first passes found nothing: the batch's wake-up must call it
            List<TimerRequest> soon = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                soon.add(TimerRequest.after("s" + i, Duration.ofMillis(100), bytes("s")));
            }
            node.scheduleAll("soon", soon);
            assertThat(recorder.awaitIds(50, Duration.ofSeconds(20))).isTrue();
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(UTF_8);
    }
}
