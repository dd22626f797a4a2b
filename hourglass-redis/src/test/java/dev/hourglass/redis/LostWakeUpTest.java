package dev.hourglass.redis;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.args.ClientType;
import redis.clients.jedis.params.ClientKillParams;

/**
 * A node sleeps towards the earliest time its last claim reported (here a timer an hour away) and
 * learns of earlier timers from wake-up messages. A timer whose message is lost (published on a
 * channel nobody hears) waits at most the fallback poll period; and since messages published while
 * the subscription is down are lost, a resubscription has every shard claimed on at once. Before
 * both, such a timer waited for the far timer (CI saw it as a test waiting 10 s for a due-now timer
 * scheduled while the node was subscribing).
 */
class LostWakeUpTest {
    private static final Duration AWAIT = Duration.ofSeconds(10);

    @RegisterExtension
    static final RedisServerExtension REDIS = new RedisServerExtension();

    @Test
    void aTimerWhoseWakeUpMessageIsLostWaitsAtMostTheFallbackPoll() throws InterruptedException {
        try (RedisTimers node = node("fallback", Duration.ofMillis(300));
                Jedis admin = REDIS.server().client()) {
            Recorder recorder = sleepingTowardsAFarTimer(node);
            scheduleDueNowUnheard(admin, "fallback");
            assertThat(recorder.awaitIds(1, AWAIT))
                    .as("claimed by the fallback poll")
                    .isTrue();
            assertThat(recorder.byId().keySet()).containsExactly("lost");
        }
    }

    @Test
    void aResubscriptionClaimsOnEveryShard() throws InterruptedException {
        try (RedisTimers node = node("resubscribe", Duration.ofDays(1));
                Jedis admin = REDIS.server().client()) {
            Recorder recorder = sleepingTowardsAFarTimer(node);
            scheduleDueNowUnheard(admin, "resubscribe");
            admin.clientKill(ClientKillParams.clientKillParams().type(ClientType.PUBSUB));
            assertThat(recorder.awaitIds(1, AWAIT))
                    .as("claimed after the resubscription")
                    .isTrue();
            assertThat(recorder.byId().keySet()).containsExactly("lost");
        }
    }

    private static RedisTimers node(String namespace, Duration fallbackPoll) {
        return RedisTimers.builder()
                .redis("127.0.0.1", REDIS.server().port())
                .namespace(namespace)
                .queues("q")
                .durability(Durability.memory())
                .fallbackPoll(fallbackPoll)
                .build();
    }

    /**
     * Schedules a timer an hour away, registers a handler and waits until the node has subscribed
     * (which has every shard claimed on) and its last claim set the shard's time well ahead.
     */
    private static Recorder sleepingTowardsAFarTimer(RedisTimers node) throws InterruptedException {
        node.schedule("q", "far", Duration.ofHours(1), bytes("f"));
        Recorder recorder = new Recorder();
        node.register("q", recorder);
        assertThat(Recorder.eventually(
                        () -> node.subscriptions() >= 1 && node.untilClaim("q", 0) > TimeUnit.MILLISECONDS.toNanos(100),
                        AWAIT))
                .isTrue();
        return recorder;
    }

    /** Runs the schedule script of a timer due now with a wake-up channel no node listens on. */
    private static void scheduleDueNowUnheard(Jedis admin, String namespace) {
        ShardKeys shard = ShardKeys.of(namespace, "q", 1)[0];
        Object due = admin.evalsha(
                Script.SCHEDULE.sha(),
                shard.keys(),
                List.of(bytes("lost"), bytes("p"), bytes("in"), bytes("0"), bytes("nobody"), shard.wakeTopic()));
        assertThat(due).isInstanceOf(Long.class);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(UTF_8);
    }
}
