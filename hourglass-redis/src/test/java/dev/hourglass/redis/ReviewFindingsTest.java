package dev.hourglass.redis;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/** Regression tests for review findings, against a real redis-server. */
class ReviewFindingsTest {
    private static final Duration AWAIT = Duration.ofSeconds(30);
    private static final AtomicInteger NAMESPACES = new AtomicInteger();

    @RegisterExtension
    static final RedisServerExtension REDIS = new RedisServerExtension();

    private final List<RedisTimers> nodes = new ArrayList<>();
    private final String namespace = "rv" + NAMESPACES.incrementAndGet();

    @AfterEach
    void closeNodes() {
        nodes.forEach(RedisTimers::close);
    }

    private RedisTimers start(RedisTimersBuilder builder) {
        RedisTimers node = builder.build();
        nodes.add(node);
        return node;
    }

    private RedisTimersBuilder builder() {
        return RedisTimers.builder()
                .redis("127.0.0.1", REDIS.server().port())
                .namespace(namespace)
                .queues("q")
                .fallbackPoll(Duration.ofMillis(200));
    }

    /**
     * Each handler takes 300 ms, well under the 2 s lease, and no node fails; but with one handler
     * thread the node claimed every timer at once, so the later ones waited in the executor's queue
     * until their leases ran out and were delivered twice. Sixteen timers keep a node's queue longer
     * than the lease (two threads: 2.4 s); the lease is 2 s so that only a stall of over 1.3 s, not
     * a loaded machine's usual ones, outlasts the heartbeats.
     */
    private void eachDeliveredOnceWhenHandlersAreFasterThanTheLease(RedisTimersBuilder b, int timers)
            throws InterruptedException {
        b.handlerThreads(1).leaseDuration(Duration.ofSeconds(2));
        RedisTimers node = start(b.nodeId("a"));
        RedisTimers other = start(b.nodeId("b"));
        Recorder recorder = new Recorder();
        for (RedisTimers n : List.of(node, other)) {
            Recorder r = recorder.forNode(n.nodeId());
            n.register("q", d -> {
                r.handle(d);
                Thread.sleep(300); // the handler's work: 300 ms < the 2 s lease
            });
        }
        List<TimerRequest> requests = new ArrayList<>();
        for (int i = 0; i < timers; i++) {
            requests.add(TimerRequest.after("w" + i, Duration.ZERO, bytes("w")));
        }
        node.scheduleAll("q", requests);

        assertThat(recorder.awaitIds(timers, AWAIT)).isTrue();
        assertThat(Recorder.eventually(
                        () -> {
                            for (int i = 0; i < timers; i++) {
                                if (node.lookup("q", "w" + i).isPresent()) {
                                    return false;
                                }
                            }
                            return true;
                        },
                        AWAIT))
                .as("all acknowledged; deliveries: %s", recorder.byId())
                .isTrue();
        for (int i = 0; i < timers; i++) {
            assertThat(recorder.of("w" + i))
                    .as("deliveries of w%d", i)
                    .extracting(Recorder.Seen::attempt)
                    .containsExactly(1);
        }
    }

    @Test
    void defaultsDoNotQueueClaimedTimersPastTheirLease() throws InterruptedException {
        eachDeliveredOnceWhenHandlersAreFasterThanTheLease(builder().shards(1), 16);
    }

    @Test
    void aPassOverManyShardsClaimsNoMoreThanMaxInFlight() throws InterruptedException {
        eachDeliveredOnceWhenHandlersAreFasterThanTheLease(builder().shards(8).maxInFlight(1), 16);
    }

    /**
     * A delay is rounded up to whole milliseconds but was added to Redis's time rounded DOWN, so the
     * timer could be claimed up to 1 ms before the delay had passed on Redis's own clock. Proof: TIME
     * read just before the schedule and just after the claim that took it, in the same pipelines,
     * are less than the delay apart.
     */
    @Test
    void aDelayedTimerIsNeverClaimedBeforeItsDelayOnRedisClock() {
        ShardKeys shard = ShardKeys.of(namespace, "q", 1)[0];
        List<byte[]> claimArgs = List.of(bytes("1"), bytes("60000"), bytes("5"), bytes("probe"));
        long earliest = Long.MAX_VALUE;
        try (Jedis jedis = REDIS.server().client()) {
            jedis.scriptLoad(Script.SCHEDULE.source());
            jedis.scriptLoad(Script.CLAIM.source());
            for (int i = 0; i < 100; i++) {
                String id = "early" + i;
                var p = jedis.pipelined();
                var before = p.time();
                p.evalsha(
                        Script.SCHEDULE.sha(),
                        shard.keys(),
                        List.of(bytes(id), bytes("x"), bytes("in"), bytes("1"), bytes("none"), bytes("q")));
                p.sync();
                long t0 = micros(before.get());
                while (true) {
                    var q = jedis.pipelined();
                    var claimed = q.evalsha(Script.CLAIM.sha(), shard.keys(), claimArgs);
                    var after = q.time();
                    q.sync();
                    if (((List<?>) claimed.get()).size() > Script.CLAIM_HEADER) {
                        earliest = Math.min(earliest, micros(after.get()) - t0);
                        break;
                    }
                }
                jedis.del(shard.keys().toArray(new byte[0][]));
            }
        }
        assertThat(earliest)
                .as("µs from before the schedule to after the claim")
                .isGreaterThanOrEqualTo(1_000);
    }

    /**
     * Close promises to wait for running deliveries; a running handler that schedules a follow-up
     * timer (a chain) must be able to, or its work fails during a graceful shutdown.
     */
    @Test
    void aHandlerRunningDuringCloseCanStillScheduleItsFollowUp() throws InterruptedException {
        RedisTimers node = start(builder().leaseDuration(Duration.ofSeconds(10)));
        CountDownLatch handling = new CountDownLatch(1);
        CountDownLatch closing = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        node.register("q", d -> {
            if (d.id().equals("first")) {
                handling.countDown();
                closing.await();
                try {
                    node.schedule("q", "follow-up", Duration.ofHours(1), bytes("f"));
                } catch (RuntimeException e) {
                    failure.set(e);
                    throw e;
                }
            }
        });
        node.schedule("q", "first", Duration.ZERO, bytes("x"));
        assertThat(handling.await(AWAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        Thread closer = new Thread(node::close);
        closer.start();
        assertThat(Recorder.eventually(() -> closer.getState() == Thread.State.TIMED_WAITING, AWAIT))
                .isTrue(); // close is waiting for the running delivery
        closing.countDown();
        closer.join(AWAIT.toMillis());
        assertThat(closer.isAlive()).isFalse();
        assertThat(failure.get()).isNull();
        try (RedisTimers reader = RedisTimers.builder()
                .redis("127.0.0.1", REDIS.server().port())
                .namespace(namespace)
                .queues("q")
                .build()) {
            assertThat(reader.lookup("q", "follow-up")).isPresent();
            assertThat(reader.lookup("q", "first")).isEmpty(); // acknowledged during the drain
        }
    }

    /**
     * One shard whose claim script fails (here a key of the wrong type) made the whole pipelined claim
     * throw, discarding the timers the other shards' scripts had just claimed: they were never run,
     * came back after their lease with one attempt more, and ended in the dead letters.
     */
    @Test
    void aFailingShardDoesNotSwallowTheClaimsOfTheOthers() throws InterruptedException {
        // A lease of 5 s: with claims swallowed as before, the timer is not delivered as attempt 1
        // within the 10 s wait; a lease of 300 ms let a stall between claim and ack bring attempt 2.
        RedisTimers node = start(builder().shards(2).maxAttempts(2).leaseDuration(Duration.ofSeconds(5)));
        String id = "healthy";
        int good = ShardKeys.shardOf(id, 2);
        try (Jedis jedis = REDIS.server().client()) {
            jedis.set(
                    ShardKeys.of(namespace, "q", 2)[1 - good].stateKey(TimerState.CLAIMED), bytes("not a sorted set"));
        }
        Recorder recorder = new Recorder();
        node.register("q", recorder);
        node.schedule("q", id, Duration.ZERO, bytes("h"));

        assertThat(recorder.await(() -> !recorder.of(id).isEmpty(), Duration.ofSeconds(10)))
                .as("delivered; now %s", node.lookup("q", id))
                .isTrue();
        assertThat(recorder.of(id)).extracting(Recorder.Seen::attempt).containsExactly(1);
    }

    /**
     * Namespace "a:b" with queue "c" and namespace "a" with queue "b:c" had the same keys (shown
     * before the fix by a lookup through the second seeing the first's timer); a colon in a queue
     * name is now refused, so the key's last two fields always split one way.
     */
    @Test
    void differentNamespacesAndQueuesNeverShareKeys() {
        start(builder().namespace(namespace + ":x").queues("y"));
        assertThatThrownBy(() -> builder().namespace(namespace).queues("x:y"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("queue must not contain a colon: 'x:y'");
    }

    /** Finding 6: nodes that disagreed on the shard count stranded half the timers silently. */
    @Test
    void aNodeWithAnotherShardCountIsRefused() {
        start(builder().shards(4));
        assertThatThrownBy(() -> start(builder().shards(2)))
                .isInstanceOf(RedisTimersException.class)
                .hasMessageContaining("queue 'q' has 4 shards in Redis")
                .hasMessageContaining("built with shards(2)");
        start(builder().shards(4)).close();
    }

    private static long micros(List<String> time) {
        return Long.parseLong(time.get(0)) * 1_000_000 + Long.parseLong(time.get(1));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(UTF_8);
    }
}
