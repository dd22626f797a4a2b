package dev.hourglass.redis;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import redis.clients.jedis.Jedis;

/**
 * Issue 12's Redis CPU per fired timer: a schedule script ran nine commands for one timer (removals
 * from leases, dead and recur that almost never had the id, a token, {@code TIME}); it now runs
 * only its writes and the head check for a new id, and timers with due times need no script. The removals still run when the id is held in
 * any state, in one-at-a-time and batched schedules alike, and the outcome of the delivery that a
 * reschedule overtook is still ignored.
 */
class ScheduleCostTest {
    private static final Instant FAR = Instant.parse("2100-01-01T00:00:00Z");

    @Test
    void aScheduleByDelayOfNewIdsRunsOnlyItsWritesTheClockAndTheHeadCheck() {
        try (RedisServerProcess server = RedisServerProcess.start("everysec");
                Jedis admin = server.client();
                RedisTimers node = node(server.port(), 1)) {
            node.schedule("q", "head", Duration.ofHours(1), bytes("h")); // the earliest: later ones publish nothing
            Map<String, Long> script = Map.of("evalsha", 1L, "hset", 2L, "zadd", 1L, "zrange", 1L, "time", 1L);

            admin.configResetStat();
            node.schedule("q", "one", Duration.ofHours(2), bytes("p"));
            assertThat(commands(admin))
                    .as("the schedule script of one new timer with a delay")
                    .isEqualTo(script);

            admin.configResetStat();
            node.scheduleAll(
                    "q",
                    List.of(
                            TimerRequest.after("a", Duration.ofHours(2), bytes("p")),
                            TimerRequest.after("b", Duration.ofHours(3), bytes("p")),
                            TimerRequest.after("c", Duration.ofHours(4), bytes("p"))));
            assertThat(commands(admin))
                    .as("the schedule script of a batch of new timers with delays")
                    .isEqualTo(script);
        }
    }

    /**
     * Timers with a due time need no clock inside the write: a MULTI/EXEC of plain commands stores
     * them, one or a batch, with no script (no EVALSHA, so no Lua), and removes the ids from the
     * other states unconditionally (a miss for a new id). Nothing is published for timers that are
     * not the shard's earliest.
     */
    @Test
    void aScheduleOfTimersWithDueTimesRunsNoScript() {
        try (RedisServerProcess server = RedisServerProcess.start("everysec");
                Jedis admin = server.client();
                RedisTimers node = node(server.port(), 1)) {
            node.schedule("q", "head", Duration.ofHours(1), bytes("h"));
            Map<String, Long> transaction = Map.of(
                    "multi", 1L,
                    "hset", 2L,
                    "zrem", 2L,
                    "hdel", 1L,
                    "zadd", 1L,
                    "zrange", 1L,
                    "time", 1L,
                    "exec", 1L);

            admin.configResetStat();
            node.schedule("q", "one", FAR, bytes("p"));
            assertThat(commands(admin)).as("one new timer with a due time").isEqualTo(transaction);

            admin.configResetStat();
            node.scheduleAll(
                    "q",
                    List.of(
                            TimerRequest.at("a", FAR.plusSeconds(2), bytes("p")),
                            TimerRequest.at("b", FAR.plusSeconds(3), bytes("p")),
                            TimerRequest.at("a", FAR.plusSeconds(4), bytes("later"))));
            assertThat(commands(admin))
                    .as("a batch of new timers with due times")
                    .isEqualTo(transaction);
            TimerSnapshot a = node.lookup("q", "a").orElseThrow();
            assertThat(a.dueTime()).as("the later request for an id wins").isEqualTo(FAR.plusSeconds(4));
            assertThat(a.payloadAsString()).isEqualTo("later");
            assertThat(a.state()).isEqualTo(TimerState.SCHEDULED);
            assertThat(a.attempts()).isZero();

            admin.configResetStat();
            node.schedule("q", "earliest", Instant.now().plusSeconds(60), bytes("e"));
            assertThat(commands(admin))
                    .as("the shard's new earliest timer is announced once EXEC has answered")
                    .containsEntry("publish", 1L)
                    .containsEntry("exec", 1L)
                    .doesNotContainKey("evalsha");
        }
    }

    /** Each of the four ways to schedule: one or a batch, by due time (MULTI/EXEC) or delay (script). */
    @ParameterizedTest(name = "batched {0}, by delay {1}")
    @CsvSource({"true, false", "false, false", "true, true", "false, true"})
    void aScheduleReplacesAClaimedADeadAndARecurringTimer(boolean batched, boolean byDelay)
            throws InterruptedException {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch claimedRan = new CountDownLatch(1);
        try (RedisServerProcess server = RedisServerProcess.start("everysec");
                Jedis admin = server.client();
                RedisTimers node = node(server.port(), 1)) {
            node.register("q", d -> {
                if (d.id().equals("claimed")) {
                    claimedRan.countDown();
                    Recorder.awaitUninterruptibly(release);
                } else if (d.id().equals("dead")) {
                    throw new IllegalStateException("failing on purpose (expected in this test)");
                }
            });
            node.scheduleRecurring("q", "series", Recurrence.fixedRate(Duration.ofHours(1)), bytes("s"));
            node.schedule("q", "claimed", Duration.ZERO, bytes("c"));
            node.schedule("q", "dead", Duration.ZERO, bytes("d"));
            assertThat(Recorder.eventually(() -> state(node, "dead") == TimerState.DEAD, Duration.ofSeconds(10)))
                    .isTrue();
            claimedRan.await();
            assertThat(state(node, "claimed")).isEqualTo(TimerState.CLAIMED);
            byte[] recur = ShardKeys.of("cost", "q", 1)[0].keys().get(6);
            assertThat(admin.hlen(recur)).isEqualTo(1L);

            List<String> ids = List.of("series", "claimed", "dead", "fresh");
            Duration delay = Duration.between(Instant.now(), FAR);
            List<TimerRequest> requests = ids.stream()
                    .map(id -> byDelay
                            ? TimerRequest.after(id, delay, bytes("new " + id))
                            : TimerRequest.at(id, FAR, bytes("new " + id)))
                    .toList();
            if (batched) {
                node.scheduleAll("q", requests);
            } else {
                requests.forEach(r -> {
                    if (byDelay) {
                        node.schedule("q", r.id(), delay, r.payload());
                    } else {
                        node.schedule("q", r.id(), FAR, r.payload());
                    }
                });
            }
            release.countDown(); // the overtaken delivery ends: its acknowledgement must change nothing
            assertThat(Recorder.eventually(() -> node.nodeStats().inFlight() == 0, Duration.ofSeconds(10)))
                    .isTrue();

            for (String id : ids) {
                TimerSnapshot s = node.lookup("q", id).orElseThrow();
                assertThat(s.state()).as(id).isEqualTo(TimerState.SCHEDULED);
                assertThat(s.dueTime()).as(id).isBetween(FAR.minusSeconds(1), FAR.plusSeconds(60));
                assertThat(s.attempts()).as(id).isZero();
                assertThat(s.payloadAsString()).as(id).isEqualTo("new " + id);
            }
            assertThat(node.stats("q"))
                    .isEqualTo(Map.of(TimerState.SCHEDULED, 4L, TimerState.CLAIMED, 0L, TimerState.DEAD, 0L));
            assertThat(admin.hlen(recur)).as("series records left").isZero();
        }
    }

    private static RedisTimers node(int port, int maxAttempts) {
        return RedisTimers.builder()
                .redis("127.0.0.1", port)
                .namespace("cost")
                .queues("q")
                .maxAttempts(maxAttempts)
                .durability(Durability.memory())
                .build();
    }

    private static TimerState state(RedisTimers node, String id) {
        return node.lookup("q", id).map(TimerSnapshot::state).orElse(null);
    }

    /**
     * The calls per command since the reset, but INFO, CONFIG and the SUBSCRIBE of the node's
     * wake-up subscriber (which may connect meanwhile): what the schedule ran.
     */
    private static Map<String, Long> commands(Jedis admin) {
        Map<String, Long> calls = new TreeMap<>();
        for (String line : admin.info("commandstats").lines().toList()) {
            if (!line.startsWith("cmdstat_")) {
                continue;
            }
            String name = line.substring("cmdstat_".length(), line.indexOf(':'));
            if (name.equals("info") || name.startsWith("config") || name.equals("subscribe")) {
                continue;
            }
            calls.put(name, Long.parseLong(line.replaceAll("^[^:]*:calls=(\\d+),.*", "$1")));
        }
        return calls;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(UTF_8);
    }
}
