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
import redis.clients.jedis.Jedis;

/**
 * Issue 12's Redis CPU per fired timer: a schedule script ran nine commands for one timer (removals
 * from leases, dead and recur that almost never had the id, a token, {@code TIME}); it now runs
 * only its writes and the head check for a new id. The removals still run when the id is held in
 * any state, in one-at-a-time and batched schedules alike, and the outcome of the delivery that a
 * reschedule overtook is still ignored.
 */
class ScheduleCostTest {
    private static final Instant FAR = Instant.parse("2100-01-01T00:00:00Z");

    @Test
    void aScheduleOfNewIdsRunsOnlyItsWritesAndTheHeadCheck() {
        try (RedisServerProcess server = RedisServerProcess.start("everysec");
                Jedis admin = server.client();
                RedisTimers node = node(server.port(), 1)) {
            node.schedule("q", "head", FAR, bytes("h")); // the shard's earliest: later ones publish nothing
            admin.configResetStat();
            node.schedule("q", "one", FAR.plusSeconds(1), bytes("p"));
            assertThat(innerCommands(admin))
                    .as("commands run by the schedule script of one new timer")
                    .isEqualTo(Map.of("hset", 2L, "zadd", 1L, "zrange", 1L));

            admin.configResetStat();
            node.scheduleAll(
                    "q",
                    List.of(
                            TimerRequest.at("a", FAR.plusSeconds(2), bytes("p")),
                            TimerRequest.at("b", FAR.plusSeconds(3), bytes("p")),
                            TimerRequest.at("c", FAR.plusSeconds(4), bytes("p"))));
            assertThat(innerCommands(admin))
                    .as("commands run by the schedule script of a batch of new timers")
                    .isEqualTo(Map.of("hset", 2L, "zadd", 1L, "zrange", 1L));
        }
    }

    @Test
    void aBatchReplacesAClaimedADeadAndARecurringTimer() throws InterruptedException {
        replacesEveryState(true);
    }

    @Test
    void aSingleScheduleReplacesAClaimedADeadAndARecurringTimer() throws InterruptedException {
        replacesEveryState(false);
    }

    private static void replacesEveryState(boolean batched) throws InterruptedException {
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
            if (batched) {
                node.scheduleAll(
                        "q",
                        ids.stream()
                                .map(id -> TimerRequest.at(id, FAR, bytes("new " + id)))
                                .toList());
            } else {
                ids.forEach(id -> node.schedule("q", id, FAR, bytes("new " + id)));
            }
            release.countDown(); // the overtaken delivery ends: its acknowledgement must change nothing
            assertThat(Recorder.eventually(() -> node.nodeStats().inFlight() == 0, Duration.ofSeconds(10)))
                    .isTrue();

            for (String id : ids) {
                TimerSnapshot s = node.lookup("q", id).orElseThrow();
                assertThat(s.state()).as(id).isEqualTo(TimerState.SCHEDULED);
                assertThat(s.dueTime()).as(id).isEqualTo(FAR);
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
     * The calls per command since the reset, but EVALSHA, INFO, CONFIG and the SUBSCRIBE of the
     * node's wake-up subscriber (which may connect meanwhile): what the scripts ran.
     */
    private static Map<String, Long> innerCommands(Jedis admin) {
        Map<String, Long> calls = new TreeMap<>();
        for (String line : admin.info("commandstats").lines().toList()) {
            if (!line.startsWith("cmdstat_")) {
                continue;
            }
            String name = line.substring("cmdstat_".length(), line.indexOf(':'));
            if (name.equals("evalsha")
                    || name.equals("info")
                    || name.startsWith("config")
                    || name.equals("subscribe")) {
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
