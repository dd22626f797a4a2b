package dev.hourglass.redis;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hourglass.timer.Timer;
import dev.hourglass.timer.Timers;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * Passes run by hand on a real server: a claim carries its shard's acks, an ack whose shard is
 * claimed on soon waits for that claim (with free slots, not while draining), and a claim that fails
 * puts the acks it carried back for a pass within the window. Handlers run on the claimer's thread
 * (a direct executor), so each pass's outcomes are queued when it returns.
 */
class ClaimerTest {
    private static final AtomicInteger NAMESPACES = new AtomicInteger();
    private static final long WINDOW_MILLIS = WakeAlarm.OUTCOME_DELAY_MILLIS;

    @RegisterExtension
    static final RedisServerExtension REDIS = new RedisServerExtension();

    private final String namespace = "claimer" + NAMESPACES.incrementAndGet();
    private final ShardKeys[] keys = ShardKeys.of(namespace, "q", 1);
    private final Timer timer = Timers.builder().startTimerThread();
    private final Servers servers = DirectServers.of(REDIS.server());
    private final RedisTimers producer = RedisTimers.builder()
            .redis("127.0.0.1", REDIS.server().port())
            .namespace(namespace)
            .queues("q")
            .shards(1)
            .build();
    private final List<String> handled = new CopyOnWriteArrayList<>();
    private final InFlight inFlight = new InFlight(Runnable::run, timer, "n", 10_000, 0, a -> 60_000, () -> {});
    private final DueShards shards = new DueShards();
    private final AtomicBoolean draining = new AtomicBoolean();
    private final OutcomeSender sender = new OutcomeSender(servers, inFlight, shards, new NodeCounters(), "n", 5);
    private final Claimer claimer = new Claimer(
            servers,
            inFlight,
            shards,
            new NodeCounters(),
            () -> {},
            draining::get,
            "n",
            new LoopSettings(100, 60_000, 5, 1_000, 256, 5));
    private long passes;

    ClaimerTest() {
        shards.add(
                "q",
                keys,
                d -> {
                    handled.add(d.id());
                    if (d.id().startsWith("fail")) {
                        throw new IllegalStateException("failing on purpose (expected in this test)");
                    }
                },
                System.nanoTime());
    }

    @AfterEach
    void close() throws Exception {
        producer.close();
        servers.close();
        timer.close();
    }

    @Test
    void anAckWaitsForTheClaimOnItsShardDueWithinTheWindowWhichCarriesIt() {
        schedule("a");
        pass();
        assertThat(handled).containsExactly("a");
        shards.learn("q", 0, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WINDOW_MILLIS / 2), false);

        long delay = pass();
        assertThat(delay).as("the next pass, ms").isLessThanOrEqualTo(WINDOW_MILLIS);
        assertThat(producer.lookup("q", "a")).as("held, not sent").isPresent();
        assertThat(inFlight.pendingOutcomes()).hasSize(1);

        schedule("b");
        shards.learn("q", 0, System.nanoTime(), false);
        long scripts = evalsha();
        pass();
        assertThat(evalsha() - scripts)
                .as("one script: the claim, carrying the ack")
                .isEqualTo(1);
        assertThat(producer.lookup("q", "a")).as("acknowledged").isEmpty();
        assertThat(handled).containsExactly("a", "b");
        assertThat(inFlight.pendingOutcomes())
                .as("b's ack, queued by its handler")
                .hasSize(1);
    }

    @Test
    void nothingWaitsWhileDraining() {
        schedule("a");
        pass();
        shards.learn("q", 0, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WINDOW_MILLIS / 2), false);
        draining.set(true);

        pass();
        assertThat(producer.lookup("q", "a")).isEmpty();
        assertThat(inFlight.pendingOutcomes()).isEmpty();
    }

    @Test
    void nothingWaitsForAShardDueLaterThanTheWindow() {
        schedule("a");
        pass();
        shards.learn("q", 0, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(10 * WINDOW_MILLIS), false);

        pass();
        assertThat(producer.lookup("q", "a")).isEmpty();
        assertThat(inFlight.pendingOutcomes()).isEmpty();
    }

    /**
     * One pipeline with an ack carried by the claim, a nack alone before it and a new timer claimed:
     * each reply goes to its own outcome.
     */
    @Test
    void aCarriedAckANackAloneAndAClaimShareOnePass() {
        schedule("a");
        schedule("fail-b");
        pass();
        assertThat(handled).containsExactlyInAnyOrder("a", "fail-b");
        schedule("c");
        shards.learn("q", 0, System.nanoTime(), false);

        pass();
        assertThat(producer.lookup("q", "a")).isEmpty();
        assertThat(producer.lookup("q", "fail-b")).hasValueSatisfying(s -> {
            assertThat(s.state()).isEqualTo(TimerState.SCHEDULED);
            assertThat(s.attempts()).isEqualTo(1);
        });
        assertThat(handled).containsExactlyInAnyOrder("a", "fail-b", "c");
    }

    /**
     * The claim fails after the acks it carried ran (Redis does not undo a script's writes): the acks
     * go back with a pass within the window, the pass does not fail, and the next pass sends them
     * alone, which finds them done.
     */
    @Test
    void theAcksOfAFailedClaimGoBackForAPassWithinTheWindow() {
        schedule("a");
        pass();
        try (Jedis jedis = REDIS.server().client()) {
            byte[] due = keys[0].keys().get(0);
            assertThat(jedis.exists(due)).as("no timer left due").isFalse();
            jedis.set(due, "not a sorted set".getBytes(UTF_8));
            shards.learn("q", 0, System.nanoTime(), false);

            long delay = pass();
            assertThat(delay).isLessThanOrEqualTo(WINDOW_MILLIS);
            assertThat(inFlight.pendingOutcomes()).hasSize(1);
            assertThat(producer.lookup("q", "a"))
                    .as("the ack ran before the claim failed")
                    .isEmpty();
            jedis.del(due);
        }
        pass();
        assertThat(inFlight.pendingOutcomes()).isEmpty();
    }

    /** A pipeline that does not run puts back every outcome once: a held ack and a nack sent alone. */
    @Test
    void aFailedPipelinePutsBackEveryOutcomeOnce() throws Exception {
        schedule("a");
        schedule("fail-b");
        pass();
        shards.learn("q", 0, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WINDOW_MILLIS / 2), false);
        servers.close();

        assertThatThrownBy(this::pass).isInstanceOf(RuntimeException.class);
        assertThat(inFlight.pendingOutcomes())
                .extracting(o -> o.delivery().id() + (o.ok() ? " ack" : " nack"))
                .containsExactlyInAnyOrder("a ack", "fail-b nack");
    }

    private void schedule(String id) {
        producer.schedule("q", id, Instant.now().minusSeconds(1), id.getBytes(UTF_8));
    }

    private long pass() {
        return claimer.claim(sender.take(), passes++);
    }

    private static long evalsha() {
        try (Jedis jedis = REDIS.server().client()) {
            return CommandStats.calls(jedis, "evalsha");
        }
    }
}
