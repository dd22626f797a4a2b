package dev.hourglass.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * When a node claims on a shard again: after a claim's reply, the delay to the shard's next time plus
 * the linger, never more than the fallback period, whatever the delay; without the linger only
 * when the claim answered a wake-up message of a timer due at once.
 */
class NextClaimTest {
    private static final long LINGER = TimeUnit.MILLISECONDS.toNanos(5);
    private static final long FALLBACK = TimeUnit.SECONDS.toNanos(1);
    private static final long FARTHEST_DUE_MILLIS = 1L << 51; // TimerRequest's limit

    @Test
    void aReplysDelayPlusTheLingerIsCappedByTheFallback() {
        assertThat(Claimer.untilNextClaim(100, LINGER, FALLBACK)).isEqualTo(TimeUnit.MILLISECONDS.toNanos(105));
        assertThat(Claimer.untilNextClaim(998, LINGER, FALLBACK)).isEqualTo(FALLBACK);
        assertThat(Claimer.untilNextClaim(-1, LINGER, FALLBACK))
                .as("nothing in the shard")
                .isEqualTo(FALLBACK);
        assertThat(Claimer.untilNextClaim(3_600_000, LINGER, FALLBACK))
                .as("an hour")
                .isEqualTo(FALLBACK);
    }

    /** The delay in ns would overflow a long: the shard then looked due for ever and the loop spun. */
    @Test
    void aTimerCenturiesAwayWaitsTheFallbackNotAnOverflow() {
        assertThat(Claimer.untilNextClaim(FARTHEST_DUE_MILLIS, LINGER, FALLBACK))
                .isEqualTo(FALLBACK);
        assertThat(Claimer.untilNextClaim(Long.MAX_VALUE / 1_000, LINGER, FALLBACK))
                .isEqualTo(FALLBACK);
    }

    @Test
    void onlyTheClaimThatAnswersADueNowHintKnowsIt() {
        DueShards shards = new DueShards();
        ShardKeys[] keys = ShardKeys.of("next", "q", 2);
        assertThat(shards.add("q", keys, d -> {}, 0)).isTrue();
        DueShards.Shard first = shards.due(0).get(0);
        DueShards.Shard second = shards.due(0).get(1);

        shards.learn("q", 0, 10, true);
        shards.learn("q", 1, 10, false);
        shards.sending(List.of(first, second));
        assertThat(shards.answersDueNowHint(first)).isTrue();
        assertThat(shards.answersDueNowHint(second))
                .as("a hint of a later timer")
                .isFalse();

        shards.sending(List.of(first));
        assertThat(shards.answersDueNowHint(first))
                .as("the next claim, with no new hint")
                .isFalse();

        shards.sending(List.of(first));
        shards.learn("q", 0, 20, true); // came while the claim was under way: for the next claim
        assertThat(shards.answersDueNowHint(first)).isFalse();
        shards.sending(List.of(first));
        assertThat(shards.answersDueNowHint(first)).isTrue();
    }

    @Test
    void everyShardIsDueAfterASubscription() {
        DueShards shards = new DueShards();
        shards.add("q", ShardKeys.of("next", "q", 3), d -> {}, 0);
        for (DueShards.Shard s : shards.due(0)) {
            shards.set(s, 1_000_000);
        }
        assertThat(shards.due(500)).isEmpty();
        shards.allDue(500);
        assertThat(shards.due(500)).hasSize(3);
        assertThat(shards.time("q", 2)).isEqualTo(500);
    }

    /**
     * The acks of a shard wait for its claim only when that claim is ahead and within the window: a
     * shard due now that this pass did not claim on (no free slots) sends them at once.
     */
    @Test
    void aShardIsDueWithinTheWindowOnlyWhenItsTimeIsAheadAndNotPastIt() {
        DueShards shards = new DueShards();
        ShardKeys[] keys = ShardKeys.of("next", "q", 2);
        shards.add("q", keys, d -> {}, 0);
        List<DueShards.Shard> all = shards.due(0);
        shards.set(all.get(0), 1_000 + LINGER);
        shards.set(all.get(1), 1_000);

        assertThat(shards.dueWithin(keys[0], 1_000, LINGER))
                .as("at the window's end")
                .isTrue();
        assertThat(shards.dueWithin(keys[0], 999, LINGER)).as("past the window").isFalse();
        assertThat(shards.dueWithin(keys[1], 1_000, LINGER)).as("due now").isFalse();
        assertThat(shards.dueWithin(keys[1], 999, LINGER)).isTrue();
        assertThat(shards.dueWithin(ShardKeys.of("next", "other", 1)[0], 0, LINGER))
                .as("a queue not handled here")
                .isFalse();
        assertThat(shards.dueWithin(ShardKeys.of("next", "q", 3)[1], 999, LINGER))
                .as("a shard of another layout")
                .isFalse();
        assertThat(shards.dueWithin(ShardKeys.of("next", "q", 3)[2], 0, Long.MAX_VALUE))
                .as("beyond this layout")
                .isFalse();
    }
}
