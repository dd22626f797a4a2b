package dev.hourglass.redis;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * Recurring timers on a real redis-server: each occurrence exists and runs once however many nodes
 * race, the advance to the next occurrence is fenced and keyed on the occurrence number, a failed
 * occurrence does not stop its series, and cancel does.
 */
class RecurringTimersTest {
    /**
     * Starts the server the tests run on: Redis ({@link ValkeyRecurringTimersTest} runs them on Valkey).
     *
     * @return the running server, which the test closes
     */
    RedisServerProcess startServer() {
        return RedisServerProcess.start(ServerBinary.REDIS, "everysec");
    }

    private static final int SHARDS = 4;

    static RedisTimers node(RedisServerProcess server, String namespace, String nodeId, int maxAttempts) {
        return RedisTimers.builder()
                .redis("127.0.0.1", server.port())
                .namespace(namespace)
                .durability(Durability.memory()) // everysec: fsync() would be refused
                .queues("q")
                .shards(SHARDS)
                .nodeId(nodeId)
                .maxAttempts(maxAttempts)
                .backoff(Duration.ofMillis(10), Duration.ofMillis(10))
                .leaseDuration(Duration.ofSeconds(5))
                .fallbackPoll(Duration.ofMillis(200))
                .build();
    }

    @Test
    void threeNodesRunEachOccurrenceOfEverySeriesExactlyOnce() throws Exception {
        try (RedisServerProcess server = startServer()) {
            Runs runs = new Runs();
            List<RedisTimers> nodes = new ArrayList<>();
            try {
                for (int n = 0; n < 3; n++) {
                    nodes.add(node(server, "rec", "node-" + n, 5));
                }
                for (RedisTimers node : nodes) {
                    node.register("q", runs.forNode(node.nodeId()));
                }
                // every node declares every series, at once, as an application does at start; then
                // again while they run, as a node restarting would: the running series are kept
                declareEverywhere(nodes);
                Thread.sleep(1_500);
                declareEverywhere(nodes);
                Thread.sleep(2_000);
            } finally {
                nodes.forEach(RedisTimers::close);
            }
            for (int i = 0; i < 12; i++) {
                List<Runs.Run> series = checkEachOccurrenceOnce(runs, "rate-" + i, 12);
                for (Runs.Run r : series) {
                    assertThat(r.slot())
                            .as("rate-%d slot of occurrence %d", i, r.occurrence())
                            .isEqualTo(series.get(0).slot().plusMillis(150 * (r.occurrence() - 1)));
                }
            }
            for (int i = 0; i < 3; i++) {
                List<Runs.Run> cron = checkEachOccurrenceOnce(runs, "cron-" + i, 2);
                for (Runs.Run r : cron) {
                    assertThat(r.slot()).isEqualTo(cron.get(0).slot().plusSeconds(r.occurrence() - 1));
                }
                List<Runs.Run> delay = checkEachOccurrenceOnce(runs, "delay-" + i, 8);
                for (int k = 1; k < delay.size(); k++) {
                    assertThat(delay.get(k).slot())
                            .isAfterOrEqualTo(delay.get(k - 1).at().plusMillis(100 - 5));
                }
            }
            Map<String, Long> perNode =
                    runs.all().stream().collect(Collectors.groupingBy(Runs.Run::node, Collectors.counting()));
            System.out.println("RecurringTimersTest: runs per node " + perNode);
            assertThat(perNode).as("every node ran some occurrences").hasSize(3);
        }
    }

    private static void declareEverywhere(List<RedisTimers> nodes) throws InterruptedException {
        List<Thread> declaring = new ArrayList<>();
        for (RedisTimers node : nodes) {
            Thread t = new Thread(() -> {
                for (int i = 0; i < 12; i++) {
                    node.scheduleRecurring("q", "rate-" + i, Recurrence.fixedRate(Duration.ofMillis(150)), bytes("r"));
                }
                for (int i = 0; i < 3; i++) {
                    node.scheduleRecurring(
                            "q", "cron-" + i, Recurrence.cron("* * * * * *", ZoneId.of("UTC")), bytes("c"));
                    node.scheduleRecurring(
                            "q", "delay-" + i, Recurrence.fixedDelay(Duration.ofMillis(100)), bytes("d"));
                }
            });
            t.start();
            declaring.add(t);
        }
        for (Thread t : declaring) {
            t.join();
        }
    }

    /** Asserts occurrences 1..k each ran once, attempt 1, k at least {@code min}; returns them. */
    private static List<Runs.Run> checkEachOccurrenceOnce(Runs runs, String id, int min) {
        List<Runs.Run> series = runs.of(id);
        assertThat(series.size()).as("occurrences of %s", id).isGreaterThanOrEqualTo(min);
        for (int k = 0; k < series.size(); k++) {
            assertThat(series.get(k).occurrence()).as("%s: %s", id, series).isEqualTo(k + 1);
            assertThat(series.get(k).attempt()).as("%s: %s", id, series).isEqualTo(1);
        }
        return series;
    }

    @Test
    void anOccurrenceIsAdvancedOnceByItsTokenAndNumberOnly() throws Exception {
        try (RedisServerProcess server = startServer();
                RedisTimers node = node(server, "adv", "node-a", 5);
                Jedis jedis = server.client();
                Servers servers = DirectServers.of(server)) {
            node.scheduleRecurring("q", "s", Recurrence.fixedRate(Duration.ofMillis(50)), bytes("p"));
            Thread.sleep(100);
            ShardKeys shard = ShardKeys.of("adv", "q", SHARDS)[ShardKeys.shardOf("s", SHARDS)];
            List<?> claim = (List<?>) ScriptRunner.run(
                    servers,
                    new ScriptRunner.Call(
                            Script.CLAIM,
                            shard.keys(),
                            List.of(bytes("10"), bytes("60000"), bytes("5"), bytes("ghost"))));
            assertThat(claim).hasSize(Script.CLAIM_HEADER + 6);
            byte[] token = (byte[]) claim.get(Script.CLAIM_HEADER + 4);
            Occurrence first = Occurrence.of((byte[]) claim.get(Script.CLAIM_HEADER + 5), (Long) claim.get(0), 1, 5);
            assertThat(first.number()).isEqualTo(1);
            Delivery d = new Delivery(shard, "s", bytes("p"), Instant.EPOCH, 1, token, first);

            assertThat(ScriptRunner.run(servers, first.advance(d, true, "test")))
                    .isEqualTo(1L);
            // the same outcome again (a lost reply), and a racing node holding the same occurrence
            assertThat(ScriptRunner.run(servers, first.advance(d, true, "test")))
                    .isEqualTo(0L);
            assertThat(ScriptRunner.run(servers, first.advance(d, false, "test")))
                    .isEqualTo(0L);
            assertThat(jedis.hget(new String(shard.keys().get(6), UTF_8), "s")).startsWith("2 ");

            // the right token with another occurrence number does nothing either
            List<?> again = (List<?>) ScriptRunner.run(
                    servers,
                    new ScriptRunner.Call(
                            Script.CLAIM,
                            shard.keys(),
                            List.of(bytes("10"), bytes("60000"), bytes("5"), bytes("ghost"))));
            byte[] token2 = (byte[]) again.get(Script.CLAIM_HEADER + 4);
            Occurrence second = Occurrence.of((byte[]) again.get(Script.CLAIM_HEADER + 5), (Long) again.get(0), 1, 5);
            assertThat(second.number()).isEqualTo(2);
            Delivery stale = new Delivery(shard, "s", bytes("p"), Instant.EPOCH, 1, token2, first);
            assertThat(ScriptRunner.run(servers, first.advance(stale, true, "test")))
                    .isEqualTo(0L);
            assertThat(jedis.hget(new String(shard.keys().get(6), UTF_8), "s")).startsWith("2 ");
            Delivery right = new Delivery(shard, "s", bytes("p"), Instant.EPOCH, 1, token2, second);
            assertThat(ScriptRunner.run(servers, second.advance(right, true, "test")))
                    .isEqualTo(1L);
            assertThat(jedis.hget(new String(shard.keys().get(6), UTF_8), "s")).startsWith("3 ");
        }
    }

    @Test
    void aSeriesWithNoSlotLeftEndsAfterItsLastOccurrence() throws Exception {
        try (RedisServerProcess server = startServer();
                RedisTimers node = node(server, "end", "node-a", 5);
                Jedis jedis = server.client();
                Servers servers = DirectServers.of(server)) {
            node.scheduleRecurring("q", "s", Recurrence.fixedRate(Duration.ofMillis(50)), bytes("p"));
            Thread.sleep(100);
            ShardKeys shard = ShardKeys.of("end", "q", SHARDS)[ShardKeys.shardOf("s", SHARDS)];
            List<?> claim = (List<?>) ScriptRunner.run(
                    servers,
                    new ScriptRunner.Call(
                            Script.CLAIM,
                            shard.keys(),
                            List.of(bytes("10"), bytes("60000"), bytes("5"), bytes("ghost"))));
            long slot = (Long) claim.get(Script.CLAIM_HEADER + 2);
            // the same occurrence as a series whose next slot would lie past 2^52 ms
            Occurrence last = Occurrence.of(
                    bytes("1 " + slot + " rate " + TimerRequest.MAX_MILLIS + " RUN_ONCE 60000"),
                    (Long) claim.get(0),
                    1,
                    5);
            Delivery d = new Delivery(
                    shard, "s", bytes("p"), Instant.EPOCH, 1, (byte[]) claim.get(Script.CLAIM_HEADER + 4), last);
            assertThat(ScriptRunner.run(servers, last.advance(d, true, "test"))).isEqualTo(3L);
            assertThat(node.lookup("q", "s")).isEmpty();
            assertThat(jedis.hlen(shard.keys().get(6))).isZero();
            assertThat(jedis.hlen(shard.keys().get(3))).isZero();
        }
    }

    @Test
    void aFailingOccurrenceIsRetriedThenDroppedAndTheSeriesGoesOn() throws Exception {
        try (RedisServerProcess server = startServer();
                RedisTimers node = node(server, "fail", "node-a", 2)) {
            Runs runs = new Runs();
            node.register("q", runs.forNode("node-a", d -> {
                if (d.occurrence() == 2) {
                    throw new IllegalStateException("occurrence 2 always fails");
                }
            }));
            node.scheduleRecurring("q", "s", Recurrence.fixedRate(Duration.ofMillis(300)), bytes("p"));
            assertThat(Runs.await(() -> runs.of("s").stream().anyMatch(r -> r.occurrence() == 4), 10_000))
                    .as("occurrence 4 ran: %s", runs.of("s"))
                    .isTrue();
            List<Runs.Run> s = runs.of("s");
            System.out.println("RecurringTimersTest: a failing occurrence: " + s);
            assertThat(s.stream().map(r -> r.occurrence() + "/" + r.attempt()).toList())
                    .startsWith("1/1", "2/1", "2/2", "3/1", "4/1");
            assertThat(s.get(3).slot()).isEqualTo(s.get(0).slot().plusMillis(600)); // not shifted
            assertThat(Duration.between(s.get(1).at(), s.get(2).at()))
                    .as("the retry came after its 10 ms backoff, not after the 5 s lease")
                    .isLessThan(Duration.ofSeconds(2));
            assertThat(node.deadLetters("q", 10)).isEmpty();
            assertThat(node.lookup("q", "s")).isPresent();
        }
    }

    @Test
    void anOccurrenceWhoseLeasesRanOutIsDroppedNotDeadLettered() throws Exception {
        try (RedisServerProcess server = startServer();
                Servers servers = DirectServers.of(server)) {
            try (RedisTimers declaring = node(server, "lease", "node-a", 1)) {
                declaring.scheduleRecurring("q", "s", Recurrence.fixedRate(Duration.ofMillis(300)), bytes("p"));
            }
            Thread.sleep(350);
            // a node claims occurrence 1 with a 1 ms lease and dies: its only attempt is used up
            ShardKeys shard = ShardKeys.of("lease", "q", SHARDS)[ShardKeys.shardOf("s", SHARDS)];
            List<?> claim = (List<?>) ScriptRunner.run(
                    servers,
                    new ScriptRunner.Call(
                            Script.CLAIM, shard.keys(), List.of(bytes("10"), bytes("1"), bytes("1"), bytes("ghost"))));
            assertThat(claim).hasSize(Script.CLAIM_HEADER + 6);
            Thread.sleep(10);
            Runs runs = new Runs();
            try (RedisTimers node = node(server, "lease", "node-b", 1)) {
                node.register("q", runs.forNode("node-b"));
                assertThat(Runs.await(() -> runs.of("s").size() >= 2, 10_000))
                        .as("runs %s", runs.of("s"))
                        .isTrue();
                assertThat(node.deadLetters("q", 10)).isEmpty();
            }
            List<Runs.Run> s = runs.of("s");
            assertThat(s.get(0).occurrence())
                    .as("occurrence 1 was dropped, not run: %s", s)
                    .isEqualTo(2);
            assertThat(s.get(0).attempt()).isEqualTo(1);
            assertThat(s.get(1).occurrence()).isEqualTo(3);
        }
    }

    @Test
    void cancelStopsTheSeriesEvenWhileAnOccurrenceRuns() throws Exception {
        try (RedisServerProcess server = startServer();
                RedisTimers node = node(server, "cancel", "node-a", 5);
                Jedis jedis = server.client()) {
            Runs runs = new Runs();
            CountDownLatch running = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            node.register("q", runs.forNode("node-a", d -> {
                // only series s blocks: had "other" blocked on its occurrence 2, s could be cancelled after 1
                if (d.id().equals("s") && d.occurrence() == 2) {
                    running.countDown();
                    release.await(10, TimeUnit.SECONDS);
                }
            }));
            node.scheduleRecurring("q", "s", Recurrence.fixedRate(Duration.ofMillis(150)), bytes("p"));
            node.scheduleRecurring("q", "other", Recurrence.fixedRate(Duration.ofMillis(150)), bytes("p"));
            assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(node.cancel("q", "s")).isTrue();
            release.countDown();
            int before = runs.of("other").size();
            assertThat(Runs.await(() -> runs.of("other").size() >= before + 5, 10_000))
                    .isTrue(); // the other series went on for 5 periods meanwhile
            assertThat(runs.of("s").stream().map(Runs.Run::occurrence).toList()).containsExactly(1L, 2L);
            assertThat(node.lookup("q", "s")).isEmpty();
            assertThat(node.cancel("q", "other")).isTrue();
            long records = 0;
            for (ShardKeys shard : ShardKeys.of("cancel", "q", SHARDS)) {
                records += jedis.hlen(shard.keys().get(6));
            }
            assertThat(records).as("series records left").isZero();
        }
    }

    @Test
    void declaringASeriesAgainKeepsItAndAnotherDefinitionReplacesIt() throws Exception {
        try (RedisServerProcess server = startServer();
                RedisTimers node = node(server, "decl", "node-a", 5);
                Jedis jedis = server.client()) {
            Recurrence hourly = Recurrence.fixedRate(Duration.ofHours(1));
            Instant first = node.scheduleRecurring("q", "s", hourly, bytes("p"));
            Thread.sleep(5);
            assertThat(node.scheduleRecurring("q", "s", Recurrence.fixedRate(Duration.ofHours(1)), bytes("p")))
                    .as("the same definition again: kept")
                    .isEqualTo(first);
            Instant replaced = node.scheduleRecurring("q", "s", hourly, bytes("other payload"));
            assertThat(replaced).as("another payload: replaced").isAfter(first);
            Instant cron = node.scheduleRecurring(
                    "q", "s", Recurrence.cron("0 0 9 * * MON-FRI", ZoneId.of("Europe/Berlin")), bytes("p"));
            assertThat(cron.atZone(ZoneId.of("Europe/Berlin")).getHour()).isEqualTo(9);
            ShardKeys shard = ShardKeys.of("decl", "q", SHARDS)[ShardKeys.shardOf("s", SHARDS)];
            assertThat(jedis.hget(new String(shard.keys().get(6), UTF_8), "s"))
                    .isEqualTo("1 " + cron.toEpochMilli() + " cron RUN_ONCE 60000 Europe/Berlin 0 0 9 * * MON-FRI");
            node.schedule("q", "s", Duration.ofHours(1), bytes("one-shot"));
            assertThat(jedis.hget(new String(shard.keys().get(6), UTF_8), "s"))
                    .as("a one-shot schedule replaces the series")
                    .isNull();
            assertThatThrownBy(() -> node.scheduleRecurring("q", "", hourly, bytes("p")))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> node.scheduleRecurring("nope", "s", hourly, bytes("p")))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("unknown queue 'nope'");
            assertThatThrownBy(() -> node.scheduleRecurring("q", "s", null, bytes("p")))
                    .isInstanceOf(NullPointerException.class)
                    .hasMessageContaining("recurrence");
        }
    }

    @Test
    void recurrencesRefuseBadArguments() {
        assertThatThrownBy(() -> Recurrence.fixedRate(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("period must be a whole number of milliseconds in 1 ms..2^52 ms: PT0S");
        assertThatThrownBy(() -> Recurrence.fixedDelay(Duration.ofNanos(1_500_000)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("delay must be a whole number of milliseconds");
        assertThatThrownBy(() -> Recurrence.fixedRate(Duration.ofDays(1).negated()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Recurrence.fixedRate(Duration.ofMillis(1)).missedAfter(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lateness");
        assertThatThrownBy(() -> Recurrence.cron("0 0 9 * * MON-FRI", null))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("zone");
        assertThatThrownBy(() -> Recurrence.cron("0 0 9 * * MON-FRY", ZoneId.of("UTC")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("day-of-week field 'MON-FRY'");
        assertThatThrownBy(() -> Recurrence.fixedRate(Duration.ofMillis(1)).missedRuns(null))
                .isInstanceOf(NullPointerException.class);
        Recurrence r = Recurrence.cron("0 0 9 * * MON-FRI", ZoneId.of("Europe/Berlin"))
                .missedRuns(MissedRunPolicy.SKIP)
                .missedAfter(Duration.ofSeconds(5));
        assertThat(Recurrence.decode(r.encode()).encode()).isEqualTo(r.encode());
        assertThat(r.missedRunPolicy()).isEqualTo(MissedRunPolicy.SKIP);
    }

    static byte[] bytes(String s) {
        return s.getBytes(UTF_8);
    }
}
