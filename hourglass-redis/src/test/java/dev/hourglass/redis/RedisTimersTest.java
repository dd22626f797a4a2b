package dev.hourglass.redis;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.Jedis;

/** The API against a real redis-server: reschedule, cancel, lookup, retries, dead letters, input. */
class RedisTimersTest {
    private static final Duration AWAIT = Duration.ofSeconds(20);
    private static final AtomicInteger NAMESPACES = new AtomicInteger();
    /** The server of the class's tests; {@link ValkeyRedisTimersTest} starts another kind. */
    static RedisServerProcess server;

    private final List<RedisTimers> nodes = new ArrayList<>();
    private final String namespace = "t" + NAMESPACES.incrementAndGet();

    @BeforeAll
    static void startRedis() {
        server = RedisServerProcess.start();
    }

    @AfterAll
    static void stopRedis() {
        server.close();
    }

    @AfterEach
    void closeNodes() {
        nodes.forEach(RedisTimers::close);
    }

    private RedisTimersBuilder builder() {
        return RedisTimers.builder()
                .redis("127.0.0.1", server.port())
                .namespace(namespace)
                .queues("q", "other")
                .shards(1)
                .handlerThreads(1)
                .leaseDuration(Duration.ofSeconds(5))
                .fallbackPoll(Duration.ofMillis(200));
    }

    private RedisTimers start(RedisTimersBuilder builder) {
        RedisTimers node = builder.build();
        nodes.add(node);
        return node;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(UTF_8);
    }

    @Test
    void rescheduleReplacesDueTimeAndPayload() throws InterruptedException {
        RedisTimers node = start(builder());
        Recorder recorder = new Recorder();
        Instant far = node.schedule("q", "a", Duration.ofHours(1), bytes("old"));
        node.schedule("q", "later", Duration.ofSeconds(1), bytes("x"));
        node.register("q", recorder);

        // 1 s: the lookup below must see it still scheduled on a busy machine (150 ms was too short)
        Instant near = node.schedule("q", "a", Duration.ofSeconds(1), bytes("new"));
        node.schedule("q", "later", Duration.ofHours(1), bytes("y"));
        assertThat(near).isBefore(far);
        TimerSnapshot a = node.lookup("q", "a").orElseThrow();
        assertThat(a.payloadAsString()).isEqualTo("new");
        assertThat(a.dueTime()).isEqualTo(near);
        assertThat(a.state()).isEqualTo(TimerState.SCHEDULED);
        node.schedule("q", "probe", Duration.ofMillis(1_250), bytes("p"));

        // Both: "a" and the probe may run on two handler threads at once, the probe's recorded first.
        assertThat(recorder.await(
                        () -> !recorder.of("probe").isEmpty()
                                && !recorder.of("a").isEmpty(),
                        AWAIT))
                .isTrue();
        assertThat(recorder.of("a")).hasSize(1).first().satisfies(s -> {
            assertThat(s.payload()).isEqualTo("new");
            assertThat(s.attempt()).isEqualTo(1);
        });
        assertThat(recorder.of("later")).isEmpty();
        assertThat(node.lookup("q", "later").orElseThrow().payloadAsString()).isEqualTo("y");
        assertThat(Recorder.eventually(() -> node.lookup("q", "a").isEmpty(), AWAIT))
                .isTrue();
    }

    /**
     * Due times at both ends of the range (2^52 ms either side of the epoch) come back exact from a
     * lookup and in the delivery, stored by a transaction and by a script.
     */
    @Test
    void dueTimesAtTheEndsOfTheRangeAreExactBeforeAndAtTheClaim() throws InterruptedException {
        RedisTimers node = start(builder());
        Instant first = Instant.ofEpochMilli(-TimerRequest.MAX_MILLIS);
        Instant last = Instant.ofEpochMilli(TimerRequest.MAX_MILLIS);
        node.schedule("q", "first", first, bytes("f")); // a transaction
        node.scheduleAll(
                "q",
                List.of( // a script: the shard's batch has a delay
                        TimerRequest.at("first-by-script", first.plusMillis(1), bytes("s")),
                        TimerRequest.at("last-by-script", last.minusMillis(1), bytes("s")),
                        TimerRequest.after("later", Duration.ofHours(1), bytes("l"))));
        node.schedule("q", "last", last, bytes("x"));
        Map<String, Instant> dues = Map.of(
                "first",
                first,
                "first-by-script",
                first.plusMillis(1),
                "last",
                last,
                "last-by-script",
                last.minusMillis(1));
        for (Map.Entry<String, Instant> e : dues.entrySet()) {
            TimerSnapshot s = node.lookup("q", e.getKey()).orElseThrow();
            assertThat(s.dueTime()).as(e.getKey()).isEqualTo(e.getValue());
            assertThat(s.attempts()).as(e.getKey()).isZero();
            assertThat(s.state()).as(e.getKey()).isEqualTo(TimerState.SCHEDULED);
        }

        Map<String, Instant> delivered = new ConcurrentHashMap<>();
        node.register("q", d -> delivered.put(d.id(), d.dueTime()));
        assertThat(Recorder.eventually(() -> delivered.size() == 2, AWAIT)).isTrue();
        assertThat(delivered).isEqualTo(Map.of("first", first, "first-by-script", first.plusMillis(1)));
        assertThat(node.lookup("q", "last").orElseThrow().dueTime()).isEqualTo(last);
        assertThat(node.lookup("q", "last-by-script").orElseThrow().dueTime()).isEqualTo(last.minusMillis(1));
    }

    @Test
    void cancelRemovesTheTimer() throws InterruptedException {
        RedisTimers node = start(builder());
        Recorder recorder = new Recorder();
        node.register("q", recorder);
        // 1 s: the cancel below must come before it is due on a busy machine (150 ms was too short)
        node.schedule("q", "x", Duration.ofSeconds(1), bytes("x"));
        node.schedule("q", "probe", Duration.ofMillis(1_250), bytes("p"));

        assertThat(node.cancel("q", "x")).isTrue();
        assertThat(node.cancel("q", "x")).isFalse();
        assertThat(node.cancel("q", "never")).isFalse();
        assertThat(node.lookup("q", "x")).isEmpty();

        assertThat(recorder.await(() -> !recorder.of("probe").isEmpty(), AWAIT)).isTrue();
        assertThat(recorder.of("x")).isEmpty();
    }

    @Test
    void lookupShowsStateAttemptsAndOwner() throws InterruptedException {
        RedisTimers node = start(builder().nodeId("node-1"));
        CountDownLatch handling = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        node.register("q", d -> {
            handling.countDown();
            release.await();
        });
        assertThat(node.lookup("q", "nothing")).isEmpty();
        // 1 s: the lookup below must come before it is due on a busy machine (100 ms was too short
        // for Java 25 in CI)
        Instant due = Instant.now().plusMillis(1_000);
        node.schedule("q", "l", due, bytes("payload"));
        TimerSnapshot scheduled = node.lookup("q", "l").orElseThrow();
        assertThat(scheduled.state()).isEqualTo(TimerState.SCHEDULED);
        assertThat(scheduled.attempts()).isZero();
        assertThat(scheduled.owner()).isEmpty();
        assertThat(scheduled.dueTime())
                .isEqualTo(due.plusNanos(999_999).truncatedTo(java.time.temporal.ChronoUnit.MILLIS));

        assertThat(handling.await(AWAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        TimerSnapshot claimed = node.lookup("q", "l").orElseThrow();
        assertThat(claimed.state()).isEqualTo(TimerState.CLAIMED);
        assertThat(claimed.attempts()).isEqualTo(1);
        assertThat(claimed.owner()).contains("node-1");
        assertThat(claimed.payloadAsString()).isEqualTo("payload");

        release.countDown();
        assertThat(Recorder.eventually(() -> node.lookup("q", "l").isEmpty(), AWAIT))
                .isTrue();
    }

    @Test
    void rescheduleWhileClaimedWinsOverTheRunningDelivery() throws InterruptedException {
        RedisTimers node = start(builder().handlerThreads(2));
        CountDownLatch handling = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Recorder recorder = new Recorder();
        node.register("q", d -> {
            recorder.handle(d);
            if (d.payloadAsString().equals("first")) {
                handling.countDown();
                release.await();
            }
        });
        node.schedule("q", "r", Duration.ZERO, bytes("first"));
        assertThat(handling.await(AWAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        node.schedule("q", "r", Duration.ofMillis(300), bytes("second"));
        release.countDown(); // the first delivery's ack carries a stale token: ignored

        assertThat(recorder.await(() -> recorder.of("r").size() == 2, AWAIT)).isTrue();
        assertThat(recorder.of("r")).extracting(Recorder.Seen::payload).containsExactly("first", "second");
        assertThat(recorder.of("r")).extracting(Recorder.Seen::attempt).containsExactly(1, 1);
        assertThat(Recorder.eventually(() -> node.lookup("q", "r").isEmpty(), AWAIT))
                .isTrue();
    }

    @Test
    void aHandlerPastItsTimeoutIsDeliveredAgainAndItsLateReturnIgnored() throws InterruptedException {
        RedisTimers node = start(builder()
                .handlerThreads(2)
                .leaseDuration(Duration.ofMillis(600))
                .handlerTimeout(Duration.ofMillis(800))
                .backoff(Duration.ofMillis(50), Duration.ofMillis(50)));
        CountDownLatch secondStarted = new CountDownLatch(1);
        CountDownLatch firstReturned = new CountDownLatch(1);
        Recorder recorder = new Recorder();
        node.register("q", d -> {
            recorder.handle(d);
            if (d.attempt() == 1) {
                // hangs past its timeout (ignoring the interrupt) until the second delivery starts
                Recorder.awaitUninterruptibly(secondStarted);
                firstReturned.countDown(); // then returns: too late, ignored
            } else if (d.attempt() == 2) {
                secondStarted.countDown();
                firstReturned.await();
                throw new IllegalStateException("second delivery fails on purpose: must be retried");
            }
        });
        node.schedule("q", "slow", Instant.now().minusSeconds(1), bytes("s")); // in the past: due at once

        assertThat(recorder.await(() -> recorder.of("slow").size() >= 3, AWAIT)).isTrue();
        assertThat(Recorder.eventually(() -> node.lookup("q", "slow").isEmpty(), AWAIT))
                .isTrue();
        assertThat(recorder.of("slow")).extracting(Recorder.Seen::attempt).containsExactly(1, 2, 3);
    }

    @Test
    void failingHandlerIsRetriedWithBackoffThenDeadLetteredAndCanBeRequeued() throws InterruptedException {
        RedisTimers node = start(builder().maxAttempts(3).backoff(Duration.ofMillis(100), Duration.ofMillis(250)));
        AtomicBoolean failing = new AtomicBoolean(true);
        Recorder recorder = new Recorder();
        node.register("q", d -> {
            recorder.handle(d);
            if (failing.get()) {
                throw new IllegalStateException("failing on purpose, attempt " + d.attempt());
            }
        });
        node.schedule("q", "f", Duration.ZERO, bytes("f"));

        assertThat(Recorder.eventually(
                        () -> node.lookup("q", "f")
                                .map(s -> s.state() == TimerState.DEAD)
                                .orElse(false),
                        AWAIT))
                .isTrue();
        List<Recorder.Seen> seen = recorder.of("f");
        assertThat(seen).extracting(Recorder.Seen::attempt).containsExactly(1, 2, 3);
        // backoff 100 ms, then 200 ms; Redis counts whole milliseconds, so allow 2 ms of rounding
        assertThat(seen.get(1).nanoTime() - seen.get(0).nanoTime()).isGreaterThanOrEqualTo(98_000_000L);
        assertThat(seen.get(2).nanoTime() - seen.get(1).nanoTime()).isGreaterThanOrEqualTo(198_000_000L);
        assertThat(node.deadLetters("q", 10)).singleElement().satisfies(s -> {
            assertThat(s.id()).isEqualTo("f");
            assertThat(s.attempts()).isEqualTo(3);
            assertThat(s.state()).isEqualTo(TimerState.DEAD);
        });

        failing.set(false);
        assertThat(node.requeue("q", "f")).isTrue();
        assertThat(node.requeue("q", "f")).isFalse();
        assertThat(recorder.await(() -> recorder.of("f").size() == 4, AWAIT)).isTrue();
        assertThat(recorder.of("f").get(3).attempt()).isEqualTo(1);
        assertThat(Recorder.eventually(() -> node.lookup("q", "f").isEmpty(), AWAIT))
                .isTrue();
        assertThat(node.deadLetters("q", 10)).isEmpty();
    }

    @Test
    void purgeDeletesTheDeadLetters() throws InterruptedException {
        RedisTimers node = start(builder().shards(3).maxAttempts(1));
        node.register("q", d -> {
            throw new IllegalStateException("failing on purpose");
        });
        for (int i = 0; i < 5; i++) {
            node.schedule("q", "d" + i, Duration.ZERO, bytes("d"));
        }
        assertThat(Recorder.eventually(() -> node.deadLetters("q", 10).size() == 5, AWAIT))
                .isTrue();
        assertThat(node.deadLetters("q", 2)).hasSize(2);
        assertThat(node.purgeDeadLetters("q")).isEqualTo(5);
        assertThat(node.deadLetters("q", 10)).isEmpty();
        assertThat(node.lookup("q", "d0")).isEmpty();
    }

    /**
     * Each way to schedule announces a timer that is now its shard's earliest: a delay (the
     * schedule script publishes), a due time and a batch of due times (a MULTI/EXEC, then the node
     * publishes once EXEC has answered).
     */
    @ParameterizedTest
    @ValueSource(strings = {"delay", "due time", "batch of due times"})
    void pubSubWakesANodeSleepingTowardsAFarTimer(String how) throws InterruptedException {
        RedisTimers sleeper = start(builder().fallbackPoll(Duration.ofSeconds(60)));
        RedisTimers producer = start(builder());
        Recorder recorder = new Recorder();
        producer.schedule("q", "far", Duration.ofHours(1), bytes("far"));
        sleeper.register("q", recorder);
        try (Jedis jedis = server.client()) {
            assertThat(Recorder.eventually(
                            () -> jedis.pubsubNumSub(namespace + ":wake").get(namespace + ":wake") >= 1
                                    && sleeper.passes() >= 1,
                            AWAIT))
                    .isTrue();
        }
        long passesBefore = sleeper.passes();
        long start = System.nanoTime();
        Instant due = Instant.now().plusMillis(100);
        switch (how) {
            case "delay" -> producer.schedule("q", "near", Duration.ofMillis(100), bytes("near"));
            case "due time" -> producer.schedule("q", "near", due, bytes("near"));
            default -> producer.scheduleAll(
                    "q",
                    List.of(
                            TimerRequest.at("later", due.plusSeconds(3_600), bytes("later")),
                            TimerRequest.at("near", due, bytes("near"))));
        }

        // the sleeper would otherwise look again after its 60 s fallback poll
        assertThat(recorder.await(() -> !recorder.of("near").isEmpty(), Duration.ofSeconds(10)))
                .isTrue();
        assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(10));
        assertThat(sleeper.passes() - passesBefore).isLessThan(10);
    }

    @Test
    void badInputGetsAClearException() {
        RedisTimers node = start(builder());
        byte[] p = bytes("p");
        assertThatThrownBy(() -> node.schedule("q", null, Duration.ZERO, p))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("id");
        assertThatThrownBy(() -> node.schedule("q", "", Duration.ZERO, p))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("id must not be empty");
        assertThatThrownBy(() -> node.schedule("q", "i", Duration.ofSeconds(-1), p))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("delay must not be negative: PT-1S");
        assertThatThrownBy(() -> node.schedule("q", "i", Duration.ofDays(365L * 200_000), p))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("delay must be at most");
        assertThatThrownBy(() -> node.schedule("q", "i", Instant.MAX, p))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("dueTime must be within");
        assertThatThrownBy(() -> node.schedule("q", "i", (Duration) null, p))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("delay");
        assertThatThrownBy(() -> node.schedule("q", "i", Duration.ZERO, null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("payload");
        assertThatThrownBy(() -> node.schedule(null, "i", Duration.ZERO, p))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("queue");
        assertThatThrownBy(() -> node.schedule("nope", "i", Duration.ZERO, p))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown queue 'nope': declared queues are [other, q]");
        assertThatThrownBy(() -> node.cancel("nope", "i")).hasMessageContaining("unknown queue 'nope'");
        assertThatThrownBy(() -> node.lookup("q", null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> node.register("nope", d -> {})).hasMessageContaining("unknown queue 'nope'");
        assertThatThrownBy(() -> node.deadLetters("q", 0)).hasMessage("limit must be at least 1: 0");
        assertThatThrownBy(() ->
                        node.scheduleAll("q", java.util.Arrays.asList(TimerRequest.after("a", Duration.ZERO, p), null)))
                .isInstanceOf(NullPointerException.class);
        node.register("q", d -> {});
        assertThatThrownBy(() -> node.register("q", d -> {}))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("already has a handler");
        assertThatThrownBy(() -> RedisTimers.builder().build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("declare at least one queue");
        assertThatThrownBy(() -> RedisTimers.builder().queues("a{b}"))
                .hasMessage("queue must be non-empty and without braces: 'a{b}'");
        assertThatThrownBy(() -> RedisTimers.builder().leaseDuration(Duration.ZERO))
                .hasMessage("leaseDuration must be in 1 ms..1 day: PT0S");
        assertThatThrownBy(() -> RedisTimers.builder().shards(0)).hasMessage("shards must be in 1..1024: 0");
        assertThatThrownBy(() -> RedisTimers.builder().nodeId("-"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("nodeId must not be empty or \"-\": '-'");
        assertThat(node.lookup("q", "i")).isEmpty(); // nothing was stored by the refused calls
    }

    @Test
    void aClosedNodeRefusesCalls() {
        RedisTimers node = start(builder());
        node.close();
        node.close();
        assertThatThrownBy(() -> node.schedule("q", "i", Duration.ZERO, bytes("p")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("is closed");
    }
}
