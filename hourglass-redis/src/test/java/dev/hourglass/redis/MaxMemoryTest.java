package dev.hourglass.redis;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import redis.clients.jedis.Jedis;

/**
 * Finding 2: under maxmemory + noeviction, schedules kept succeeding far past the limit, because
 * Redis checks a script without flags only at its first write, and the schedule script's first
 * write was a ZREM, which Redis allows. The scripts now declare flags, so Redis refuses a schedule
 * before it runs, and a schedule by due time (a MULTI/EXEC of plain commands) fails with the OOM of
 * the commands Redis refused as they were queued (EXEC then runs none), while claims, acks and
 * cancels (which free memory) still run.
 */
class MaxMemoryTest {
    private static final long MAX_MEMORY = 4L << 20;

    @ParameterizedTest
    @EnumSource(ServerBinary.class)
    void aScheduleRedisCannotStoreFailsClearlyAndNothingIsHalfWritten(ServerBinary kind) throws InterruptedException {
        try (RedisServerProcess server = RedisServerProcess.start(
                        kind, "always", "--maxmemory", Long.toString(MAX_MEMORY), "--maxmemory-policy", "noeviction");
                Jedis admin = server.client();
                RedisTimers node = RedisTimers.builder()
                        .redis("127.0.0.1", server.port())
                        .namespace("oom")
                        .queues("q")
                        .fallbackPoll(Duration.ofMillis(200))
                        .build()) {
            List<TimerRequest> soon = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                soon.add(TimerRequest.after("soon" + i, Duration.ZERO, "s".getBytes(UTF_8)));
            }
            node.scheduleAll("q", soon);
            byte[] payload = new byte[16 * 1024];
            List<String> acked = new ArrayList<>();
            RedisTimersException refused = null;
            for (int i = 0; i < 10_000 && refused == null; i++) {
                try {
                    node.schedule("q", "big" + i, Duration.ofHours(1), payload);
                    acked.add("big" + i);
                } catch (RedisTimersException e) {
                    refused = e;
                    String id = "big" + i;
                    assertThat(node.lookup("q", id))
                            .as("the refused schedule left nothing")
                            .isEmpty();
                }
            }
            assertThat(refused)
                    .as("a schedule past maxmemory is refused")
                    .isNotNull()
                    .hasMessageStartingWith("schedule of 'big" + acked.size() + "' on queue 'q' was not acknowledged")
                    .hasMessageContaining("OOM");
            long used = Long.parseLong(admin.info("memory")
                    .lines()
                    .filter(l -> l.startsWith("used_memory:"))
                    .findFirst()
                    .orElseThrow()
                    .substring("used_memory:".length())
                    .trim());
            assertThat(used).as("used memory").isLessThan(MAX_MEMORY + 2 * payload.length + (256 << 10));
            // Redis refuses a write only while its memory is over the limit, and freeing a client's
            // buffers may bring it just under for one more write: a batch is refused within a few.
            RedisTimersException batchRefused = null;
            for (int i = 0; i < 20 && batchRefused == null; i++) {
                String id = "batch" + i;
                try {
                    node.scheduleAll("q", List.of(TimerRequest.after(id, Duration.ofHours(1), payload)));
                    acked.add(id);
                } catch (RedisTimersException e) {
                    batchRefused = e;
                    assertThat(node.lookup("q", id))
                            .as("the refused batch left nothing")
                            .isEmpty();
                }
            }
            assertThat(batchRefused)
                    .as("a batch past maxmemory is refused")
                    .isNotNull()
                    .hasMessageContaining("OOM");
            // by due time, one or a batch: a MULTI/EXEC, which Redis discards when it refuses a command
            for (boolean batched : new boolean[] {false, true}) {
                RedisTimersException dueTimeRefused = null;
                for (int i = 0; i < 20 && dueTimeRefused == null; i++) {
                    String id = (batched ? "due-batch" : "due") + i;
                    Instant due = Instant.now().plusSeconds(3_600);
                    try {
                        if (batched) {
                            node.scheduleAll(
                                    "q",
                                    List.of(
                                            TimerRequest.at(id + "-small", due, new byte[1]),
                                            TimerRequest.at(id, due, payload)));
                            acked.add(id + "-small");
                        } else {
                            node.schedule("q", id, due, payload);
                        }
                        acked.add(id);
                    } catch (RedisTimersException e) {
                        dueTimeRefused = e;
                        assertThat(node.lookup("q", id))
                                .as("the refused transaction left nothing")
                                .isEmpty();
                        assertThat(node.lookup("q", id + "-small"))
                                .as("nor its small timer")
                                .isEmpty();
                    }
                }
                assertThat(dueTimeRefused)
                        .as("a schedule by due time past maxmemory is refused, batched: %s", batched)
                        .isNotNull()
                        .hasMessageContaining("OOM");
            }
            for (String id : acked) {
                assertThat(node.lookup("q", id)).as(id).isPresent();
            }

            // claims and acks still run when Redis is full: the due timers fire and are deleted
            Recorder recorder = new Recorder();
            node.register("q", recorder);
            assertThat(recorder.awaitIds(soon.size(), Duration.ofSeconds(20))).isTrue();
            assertThat(Recorder.eventually(() -> node.lookup("q", "soon19").isEmpty(), Duration.ofSeconds(20)))
                    .isTrue();
            // cancels free memory, and then schedules fit again
            for (int i = 0; i < 50; i++) {
                assertThat(node.cancel("q", acked.get(i))).isTrue();
            }
            node.schedule("q", "fits-again", Duration.ofHours(1), payload);
        }
    }
}
