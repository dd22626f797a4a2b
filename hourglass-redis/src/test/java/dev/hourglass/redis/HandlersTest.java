package dev.hourglass.redis;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * Findings 3 and 4: a hung handler stalled its node (no handler timeout, no claims, expired leases
 * not even dead-lettered), and a handler longer than its lease ran several times at once and ended
 * dead-lettered although every run succeeded (no lease extension).
 */
class HandlersTest {
    private static final Duration AWAIT = Duration.ofSeconds(20);
    private static final AtomicInteger NAMESPACES = new AtomicInteger();

    @RegisterExtension
    static final RedisServerExtension REDIS = new RedisServerExtension();

    private final List<RedisTimers> nodes = new ArrayList<>();
    private final String namespace = "h" + NAMESPACES.incrementAndGet();
    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void closeNodes() {
        release.countDown();
        nodes.forEach(RedisTimers::close);
    }

    private RedisTimersBuilder builder() {
        return RedisTimers.builder()
                .redis("127.0.0.1", REDIS.server().port())
                .namespace(namespace)
                .queues("q")
                .shards(2)
                .fallbackPoll(Duration.ofMillis(200));
    }

    private RedisTimers start(RedisTimersBuilder builder) {
        RedisTimers node = builder.build();
        nodes.add(node);
        return node;
    }

    /** Both handler threads hang (ignoring interrupts); the node still fires the other timers. */
    @Test
    void hungHandlersTimeOutAndDoNotStopTheNode() throws InterruptedException {
        RedisTimers node = start(builder()
                .handlerThreads(2)
                .handlerTimeout(Duration.ofMillis(500))
                .leaseDuration(Duration.ofSeconds(1))
                .maxAttempts(1));
        Recorder recorder = new Recorder();
        node.register("q", d -> {
            recorder.handle(d);
            if (d.id().startsWith("hang")) {
                Recorder.awaitUninterruptibly(release);
            }
        });
        node.schedule("q", "hang0", Duration.ZERO, bytes("h"));
        node.schedule("q", "hang1", Duration.ZERO, bytes("h"));
        assertThat(recorder.awaitIds(2, AWAIT)).isTrue();
        for (int i = 0; i < 5; i++) {
            node.schedule("q", "ok" + i, Duration.ZERO, bytes("o"));
        }
        assertThat(recorder.awaitIds(7, Duration.ofSeconds(10)))
                .as("the other timers fire; seen %s", recorder.byId().keySet())
                .isTrue();
        for (String hung : List.of("hang0", "hang1")) {
            assertThat(Recorder.eventually(
                            () -> node.lookup("q", hung)
                                    .map(s -> s.state() == TimerState.DEAD)
                                    .orElse(false),
                            AWAIT))
                    .as("%s timed out on its last attempt: dead-lettered", hung)
                    .isTrue();
            assertThat(recorder.of(hung)).hasSize(1);
        }
        for (int i = 0; i < 5; i++) {
            assertThat(recorder.of("ok" + i)).hasSize(1);
        }
    }

    /**
     * A 5 s handler with a 2 s lease on one of two nodes runs once and is acknowledged (a heartbeat
     * every third of the lease: a stall of over 1.3 s would lose it).
     */
    @Test
    void aHandlerLongerThanItsLeaseKeepsItByHeartbeat() throws InterruptedException {
        RedisTimersBuilder b = builder().leaseDuration(Duration.ofSeconds(2)).handlerTimeout(Duration.ofSeconds(10));
        Recorder recorder = new Recorder();
        for (String id : List.of("a", "b")) {
            RedisTimers n = start(b.nodeId(id));
            Recorder r = recorder.forNode(id);
            n.register("q", d -> {
                r.handle(d);
                Thread.sleep(5_000);
            });
        }
        RedisTimers node = nodes.get(0);
        node.schedule("q", "long", Duration.ZERO, bytes("l"));
        assertThat(recorder.awaitIds(1, AWAIT)).isTrue();
        Thread.sleep(2_500); // > the lease: without a heartbeat the other node would claim it now
        assertThat(node.lookup("q", "long"))
                .hasValueSatisfying(s -> assertThat(s.state()).isEqualTo(TimerState.CLAIMED));
        assertThat(Recorder.eventually(() -> node.lookup("q", "long").isEmpty(), AWAIT))
                .as("acknowledged")
                .isTrue();
        assertThat(recorder.of("long")).extracting(Recorder.Seen::attempt).containsExactly(1);
    }

    /** A node closed with a short drain releases its running deliveries: another node fires them at once. */
    @Test
    void aGracefulCloseReleasesDeliveriesStillRunning() throws InterruptedException {
        RedisTimersBuilder b = builder().leaseDuration(Duration.ofSeconds(30));
        RedisTimers leaving = b.nodeId("leaving").build();
        CountDownLatch started = new CountDownLatch(1);
        leaving.register("q", d -> {
            started.countDown();
            Recorder.awaitUninterruptibly(release);
        });
        leaving.schedule("q", "moving", Duration.ZERO, bytes("m"));
        assertThat(started.await(AWAIT.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS))
                .isTrue();
        long closing = System.nanoTime();
        leaving.close(Duration.ofMillis(200));
        Recorder recorder = new Recorder();
        start(b.nodeId("staying")).register("q", recorder);
        assertThat(recorder.awaitIds(1, Duration.ofSeconds(10)))
                .as("fired by the other node long before the 30 s lease ends")
                .isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - closing)).isLessThan(Duration.ofSeconds(10));
        assertThat(recorder.of("moving")).extracting(Recorder.Seen::attempt).containsExactly(1);
    }

    /**
     * The release at close is announced on the wake-up channel: a node already running, whose last
     * claim saw the timer leased for 30 s and whose fallback poll is a day, claims it at once.
     */
    @Test
    void aReleaseAtCloseWakesTheNodesAlreadyRunning() throws InterruptedException {
        RedisTimersBuilder b = builder().leaseDuration(Duration.ofSeconds(30));
        RedisTimers leaving = start(b.nodeId("leaving")); // closed below; closing again does nothing
        CountDownLatch started = new CountDownLatch(1);
        leaving.register("q", d -> {
            started.countDown();
            Recorder.awaitUninterruptibly(release);
        });
        leaving.schedule("q", "moving", Duration.ZERO, bytes("m"));
        assertThat(started.await(AWAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        Recorder recorder = new Recorder();
        RedisTimers staying = start(b.nodeId("staying").fallbackPoll(Duration.ofDays(1)));
        staying.register("q", recorder);
        int shard = ShardKeys.shardOf("moving", 2);
        assertThat(Recorder.eventually(
                        () -> staying.subscriptions() >= 1
                                && staying.untilClaim("q", shard) > TimeUnit.SECONDS.toNanos(15),
                        AWAIT))
                .as("the staying node sleeps towards the end of the lease, 20 to 30 s away")
                .isTrue();
        leaving.close(Duration.ofMillis(200));
        assertThat(recorder.awaitIds(1, Duration.ofSeconds(10)))
                .as("claimed long before the 30 s lease ends")
                .isTrue();
        assertThat(recorder.of("moving")).extracting(Recorder.Seen::attempt).containsExactly(1);
    }

    /**
     * Attempt 1's lease runs out and attempt 2 claims the timer: attempt 1's heartbeat, ack and nack
     * are refused (fenced by its token), and attempt 2's fencing token is larger.
     */
    @Test
    void theOutcomeAndHeartbeatOfAnOlderAttemptAreIgnored() throws InterruptedException {
        RedisTimers node = start(builder().shards(1));
        node.schedule("q", "f", Duration.ZERO, bytes("f"));
        ShardKeys shard = ShardKeys.of(namespace, "q", 1)[0];
        try (Jedis jedis = REDIS.server().client()) {
            List<?> first = claimOne(jedis, shard, "old", 1);
            List<?> second = claimOne(jedis, shard, "new", 60_000); // once the 1 ms lease runs out
            assertThat(first.get(Script.CLAIM_HEADER + 3)).isEqualTo(1L);
            assertThat(second.get(Script.CLAIM_HEADER + 3)).isEqualTo(2L);
            byte[] oldToken = (byte[]) first.get(Script.CLAIM_HEADER + 4);
            byte[] newToken = (byte[]) second.get(Script.CLAIM_HEADER + 4);
            assertThat(Long.parseLong(new String(newToken, UTF_8)))
                    .isGreaterThan(Long.parseLong(new String(oldToken, UTF_8)));
            assertThat(run(jedis, Script.EXTEND, shard, bytes("f"), oldToken, bytes("60000")))
                    .isEqualTo(0L);
            assertThat(run(jedis, Script.ACK, shard, bytes("f"), oldToken)).isEqualTo(List.of(0L));
            assertThat(run(jedis, Script.NACK, shard, bytes("f"), oldToken, bytes("0"), bytes("5")))
                    .isEqualTo(0L);
            assertThat(node.lookup("q", "f")).hasValueSatisfying(s -> {
                assertThat(s.state()).isEqualTo(TimerState.CLAIMED);
                assertThat(s.owner()).contains("new");
                assertThat(s.attempts()).isEqualTo(2);
            });
            assertThat(run(jedis, Script.EXTEND, shard, bytes("f"), newToken, bytes("60000")))
                    .isEqualTo(1L);
            // acks go in batches: within one call the older attempt's ack is still ignored
            assertThat(run(jedis, Script.ACK, shard, bytes("f"), oldToken, bytes("f"), newToken))
                    .isEqualTo(List.of(0L, 1L));
        }
        assertThat(node.lookup("q", "f")).isEmpty();
    }

    /**
     * A claim runs the acks it carries before it claims: the ack of a timer whose lease has run out
     * ends it (the claim does not take it again under a new token), an ack under a token that never
     * held its timer is ignored, and the reply gives one result per ack between its header and the
     * claimed timers.
     */
    @Test
    void aClaimRunsTheAcksItCarriesBeforeItClaims() throws InterruptedException {
        RedisTimers node = start(builder().shards(1));
        node.schedule("q", "lapsed", Duration.ZERO, bytes("l"));
        node.schedule("q", "next", Duration.ZERO, bytes("n")); // due with or after "lapsed"
        ShardKeys shard = ShardKeys.of(namespace, "q", 1)[0];
        try (Jedis jedis = REDIS.server().client()) {
            List<?> first = claimOne(jedis, shard, "a", 1);
            assertThat(new String((byte[]) first.get(Script.CLAIM_HEADER), UTF_8))
                    .isEqualTo("lapsed");
            byte[] token = (byte[]) first.get(Script.CLAIM_HEADER + 4);
            double leaseEnd = jedis.zscore(shard.keys().get(1), bytes("lapsed"));
            assertThat(Recorder.eventually(
                            () -> {
                                List<String> t = jedis.time();
                                return Long.parseLong(t.get(0)) * 1000 + Long.parseLong(t.get(1)) / 1000 > leaseEnd;
                            },
                            AWAIT))
                    .as("the 1 ms lease ran out")
                    .isTrue();
            List<?> reply = (List<?>) run(
                    jedis,
                    Script.CLAIM,
                    shard,
                    bytes("2"),
                    bytes("60000"),
                    bytes("5"),
                    bytes("b"),
                    bytes("lapsed"),
                    token,
                    bytes("next"),
                    bytes("0"));
            assertThat(reply.subList(Script.CLAIM_HEADER, Script.CLAIM_HEADER + 2))
                    .as("the acks' results")
                    .isEqualTo(List.of(1L, 0L));
            assertThat(reply).hasSize(Script.CLAIM_HEADER + 2 + 6);
            assertThat(new String((byte[]) reply.get(Script.CLAIM_HEADER + 2), UTF_8))
                    .isEqualTo("next");
        }
        assertThat(node.lookup("q", "lapsed")).isEmpty();
        assertThat(node.lookup("q", "next")).map(TimerSnapshot::owner).hasValue(Optional.of("b"));
    }

    /**
     * A nack, a release or the dead letters (by a nack, or by a claim that finds the lease run out
     * on the last attempt) keep the attempt's token but end its lease: an ack sent later under that
     * token (a repeat, or the outcome of a node that heard no reply) is ignored and the timer stays
     * as it was left. Ack reads "still leased" from the meta record's owner, which every end of a
     * lease clears.
     */
    @Test
    void anAckAfterTheNackOfTheSameAttemptIsIgnored() throws InterruptedException {
        RedisTimers node = start(builder().shards(1));
        node.schedule("q", "retried", Duration.ZERO, bytes("r"));
        ShardKeys shard = ShardKeys.of(namespace, "q", 1)[0];
        try (Jedis jedis = REDIS.server().client()) {
            byte[] token = (byte[]) claimOne(jedis, shard, "a", 60_000).get(Script.CLAIM_HEADER + 4);
            assertThat(run(jedis, Script.NACK, shard, bytes("retried"), token, bytes("60000"), bytes("5")))
                    .as("due again after the backoff")
                    .isEqualTo(1L);
            assertThat(run(jedis, Script.ACK, shard, bytes("retried"), token)).isEqualTo(List.of(0L));
            assertThat(node.lookup("q", "retried")).hasValueSatisfying(s -> {
                assertThat(s.state()).isEqualTo(TimerState.SCHEDULED);
                assertThat(s.attempts()).isEqualTo(1);
            });

            node.schedule("q", "dead", Duration.ZERO, bytes("d"));
            List<?> claimed = claimOne(jedis, shard, "a", 60_000);
            assertThat(new String((byte[]) claimed.get(Script.CLAIM_HEADER), UTF_8))
                    .isEqualTo("dead");
            byte[] last = (byte[]) claimed.get(Script.CLAIM_HEADER + 4);
            assertThat(run(jedis, Script.NACK, shard, bytes("dead"), last, bytes("0"), bytes("1")))
                    .as("dead-lettered: its one attempt is used up")
                    .isEqualTo(2L);
            assertThat(run(jedis, Script.ACK, shard, bytes("dead"), last)).isEqualTo(List.of(0L));
            assertThat(node.lookup("q", "dead")).map(TimerSnapshot::state).hasValue(TimerState.DEAD);

            node.schedule("q", "released", Duration.ZERO, bytes("l"));
            claimed = claimOne(jedis, shard, "a", 60_000);
            assertThat(new String((byte[]) claimed.get(Script.CLAIM_HEADER), UTF_8))
                    .isEqualTo("released");
            byte[] held = (byte[]) claimed.get(Script.CLAIM_HEADER + 4);
            assertThat(run(jedis, Script.RELEASE, shard, bytes("a"), bytes(""), shard.wakeTopic()))
                    .as("released: node a holds no token any more")
                    .isEqualTo(1L);
            assertThat(run(jedis, Script.ACK, shard, bytes("released"), held)).isEqualTo(List.of(0L));
            assertThat(node.lookup("q", "released")).map(TimerSnapshot::state).hasValue(TimerState.SCHEDULED);
            assertThat(run(jedis, Script.CANCEL, shard, bytes("released"))).isEqualTo(1L);

            node.schedule("q", "expired", Duration.ZERO, bytes("e"));
            claimed = claimOne(jedis, shard, "a", 1);
            assertThat(new String((byte[]) claimed.get(Script.CLAIM_HEADER), UTF_8))
                    .isEqualTo("expired");
            byte[] lapsed = (byte[]) claimed.get(Script.CLAIM_HEADER + 4);
            // Once the 1 ms lease has run out, a claim that allows one attempt dead-letters it.
            assertThat(Recorder.eventually(
                            () -> ((List<?>) run(
                                            jedis,
                                            Script.CLAIM,
                                            shard,
                                            bytes("1"),
                                            bytes("60000"),
                                            bytes("1"),
                                            bytes("b")))
                                    .get(3)
                                    .equals(1L),
                            AWAIT))
                    .as("the expired lease was dead-lettered")
                    .isTrue();
            assertThat(run(jedis, Script.ACK, shard, bytes("expired"), lapsed)).isEqualTo(List.of(0L));
            assertThat(node.lookup("q", "expired")).map(TimerSnapshot::state).hasValue(TimerState.DEAD);
        }
    }

    /**
     * A retry is due after its backoff; the node's idea of the shard's next time was the failed
     * delivery's own lease expiry (what its claim reported), 30 s by default, and it waited for that
     * when nothing else made the shard due (a batch that was not full, no wake-up message).
     */
    @Test
    void aFailedAttemptIsRetriedAfterItsBackoffNotAfterItsLease() throws InterruptedException {
        RedisTimers node = start(builder()
                .leaseDuration(Duration.ofSeconds(30))
                .handlerThreads(4)
                .backoff(Duration.ofMillis(50), Duration.ofMillis(50)));
        Recorder recorder = new Recorder();
        node.register("q", d -> {
            recorder.handle(d);
            if (d.attempt() == 1) {
                throw new IllegalStateException("failing once on purpose (expected in this test)");
            }
        });
        node.schedule("q", "r", Duration.ZERO, bytes("x"));
        assertThat(recorder.await(() -> recorder.of("r").size() == 2, Duration.ofSeconds(10)))
                .as("the retry came within 10 s, long before the 30 s lease ran out")
                .isTrue();
        assertThat(recorder.of("r")).extracting(Recorder.Seen::attempt).containsExactly(1, 2);
    }

    /**
     * The timeout counts from the handler's start, not from the claim: with one handler thread (a
     * pool of two with its spare), the third of three deliveries claimed together waits 1 s for a
     * thread, then runs 1 s of its 1.5 s timeout (margins of 0.5 s, for a loaded machine's stalls).
     * Counted from the claim, it timed out and was
     * delivered twice.
     */
    @Test
    void aDeliveryWaitingForAThreadGetsItsWholeTimeout() throws InterruptedException {
        RedisTimers node = start(builder()
                .shards(1)
                .handlerThreads(1)
                .maxInFlight(3)
                .handlerTimeout(Duration.ofMillis(1_500))
                .backoff(Duration.ofMillis(50), Duration.ofMillis(50)));
        List<String> ids = List.of("s1", "s2", "s3");
        List<TimerRequest> requests = new ArrayList<>();
        ids.forEach(id -> requests.add(TimerRequest.after(id, Duration.ZERO, bytes("x"))));
        node.scheduleAll("q", requests);
        Recorder recorder = new Recorder();
        node.register("q", d -> {
            recorder.handle(d);
            Thread.sleep(1_000);
        });
        assertThat(recorder.awaitIds(ids.size(), AWAIT)).isTrue();
        assertThat(Recorder.eventually(
                        () -> ids.stream().allMatch(id -> node.lookup("q", id).isEmpty()), AWAIT))
                .as("all acknowledged; deliveries: %s", recorder.byId())
                .isTrue();
        Thread.sleep(300); // a retry after the 50 ms backoff would show by now
        for (String id : ids) {
            assertThat(recorder.of(id))
                    .as(id)
                    .extracting(Recorder.Seen::attempt)
                    .containsExactly(1);
        }
    }

    /**
     * Claims the shard's timer, again until one is claimed: a due time is rounded up to the next
     * millisecond, so a claim in the millisecond of a schedule with no delay finds nothing yet.
     */
    private static List<?> claimOne(Jedis jedis, ShardKeys shard, String owner, long leaseMillis)
            throws InterruptedException {
        AtomicReference<List<?>> reply = new AtomicReference<>();
        assertThat(Recorder.eventually(
                        () -> {
                            reply.set(claim(jedis, shard, owner, leaseMillis));
                            return reply.get().size() > Script.CLAIM_HEADER;
                        },
                        AWAIT))
                .as("claimed by %s", owner)
                .isTrue();
        return reply.get();
    }

    private static List<?> claim(Jedis jedis, ShardKeys shard, String owner, long leaseMillis) {
        return (List<?>) run(
                jedis, Script.CLAIM, shard, bytes("1"), bytes(Long.toString(leaseMillis)), bytes("5"), bytes(owner));
    }

    private static Object run(Jedis jedis, Script script, ShardKeys shard, byte[]... args) {
        return jedis.evalsha(script.sha(), shard.keys(), List.of(args));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(UTF_8);
    }
}
