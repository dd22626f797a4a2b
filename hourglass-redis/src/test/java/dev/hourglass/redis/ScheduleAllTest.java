package dev.hourglass.redis;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.Jedis;

/**
 * {@code scheduleAll} sends the timers of a shard in one call per 200 (a MULTI/EXEC by due time, a
 * script by delay): every timer is stored with its own due time and payload, of two requests for
 * one id the later wins (also across two calls on one shard), an id that was already scheduled is
 * replaced, and timers due soon are fired by a node (the batch's wake-up).
 */
class ScheduleAllTest {
    @ParameterizedTest(name = "by delay {0}")
    @ValueSource(booleans = {false, true})
    void aBatchStoresEveryTimerAndTheLaterRequestForAnIdWins(boolean byDelay) throws InterruptedException {
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
            for (int i = 0; i < 700; i++) { // more than one call's 200 on each of the 3 shards
                requests.add(request("t" + i, base.plusMillis(i), bytes("p" + i), byDelay));
            }
            requests.add(request("t5", base.plusSeconds(60), bytes("later"), byDelay));
            node.scheduleAll("q", requests);

            for (int i = 0; i < 700; i++) {
                String id = "t" + i;
                Instant due = i == 5 ? base.plusSeconds(60) : base.plusMillis(i);
                String payload = i == 5 ? "later" : "p" + i;
                assertThat(node.lookup("q", id)).as(id).hasValueSatisfying(s -> {
                    if (byDelay) { // Redis's clock at the schedule plus the delay: the same machine's
                        assertThat(s.dueTime()).isBetween(due.minusSeconds(1), due.plusSeconds(1));
                    } else {
                        assertThat(s.dueTime()).isEqualTo(due);
                    }
                    assertThat(s.payloadAsString()).isEqualTo(payload);
                    assertThat(s.state()).isEqualTo(TimerState.SCHEDULED);
                    assertThat(s.attempts()).isZero();
                });
            }
            assertThat(node.stats("q").get(TimerState.SCHEDULED)).isEqualTo(700L);

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

    /**
     * After a SCRIPT FLUSH every script answers NOSCRIPT once and runs again after the rest of its
     * pipeline. A shard whose batch mixes delays and due times therefore goes all as scripts: were
     * the due times a transaction, the second call's later request for an id would run before the
     * first call's, retried, and lose.
     */
    @Test
    void aLaterRequestWinsInAMixedBatchAfterTheScriptsWereFlushed() {
        try (RedisServerProcess server = RedisServerProcess.start();
                Jedis admin = server.client();
                RedisTimers node = RedisTimers.builder()
                        .redis("127.0.0.1", server.port())
                        .namespace("flushed")
                        .queues("q")
                        .durability(Durability.memory())
                        .build()) {
            Instant base = Instant.parse("2100-01-01T00:00:00Z");
            List<TimerRequest> requests = new ArrayList<>();
            requests.add(TimerRequest.after("x", Duration.ofHours(1), bytes("first")));
            for (int i = 0; i < 250; i++) { // the second call of the shard starts at the 201st
                requests.add(TimerRequest.at("t" + i, base, bytes("p")));
            }
            requests.add(TimerRequest.at("x", base.plusSeconds(60), bytes("later")));
            admin.scriptFlush();
            node.scheduleAll("q", requests);
            assertThat(node.lookup("q", "x")).hasValueSatisfying(s -> {
                assertThat(s.payloadAsString()).isEqualTo("later");
                assertThat(s.dueTime()).isEqualTo(base.plusSeconds(60));
            });
            assertThat(admin.info("errorstats")).as("the scripts were flushed").contains("NOSCRIPT");
        }
    }

    /** A timer due at {@code due}, given as that due time or as the delay to it from now. */
    private static TimerRequest request(String id, Instant due, byte[] payload, boolean byDelay) {
        return byDelay
                ? TimerRequest.after(id, Duration.between(Instant.now(), due), payload)
                : TimerRequest.at(id, due, payload);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(UTF_8);
    }
}
