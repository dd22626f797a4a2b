package dev.hourglass.redis;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A pass's claim on a shard carries that shard's acks ({@link OutcomeSender.Batch#carry}): the
 * carried call leaves the pipeline's own calls, its replies come from the claim, and when the claim
 * fails its acks go back to be sent again; the acks of a shard claimed on soon wait for that claim
 * ({@link OutcomeSender.Batch#hold}). No server: the batch only builds calls and reads replies.
 */
class OutcomeSenderTest {
    private final ShardKeys[] shards = ShardKeys.of("o", "q", 2);
    private final InFlight inFlight = new InFlight(Runnable::run, null, "n", 1_000, 0, a -> 10, () -> {});
    private final OutcomeSender sender = new OutcomeSender(null, inFlight, new DueShards(), new NodeCounters(), "n", 5);

    @Test
    void aCarriedAckCallLeavesTheCallsAndTakesItsRepliesFromTheClaim() {
        List<InFlight.Outcome> queued = List.of(ack(shards[0], "a"), ack(shards[1], "b"), ack(shards[0], "c"));
        inFlight.requeue(queued);
        OutcomeSender.Batch batch = sender.take();

        List<byte[]> carried = batch.carry(shards[0]);
        assertThat(carried).extracting(b -> new String(b, UTF_8)).containsExactly("a", "t-a", "c", "t-c");
        assertThat(batch.calls())
                .as("only shard 1's ack call is left")
                .singleElement()
                .satisfies(c -> {
                    assertThat(c.script()).isEqualTo(Script.ACK);
                    assertThat(c.keys()).isEqualTo(shards[1].keys());
                });
        assertThat(batch.carry(shards[0])).as("carried once").isEmpty();
        assertThat(batch.settle(List.of(List.of(1L)))).isNull();
        assertThat(batch.settleCarried(shards[1], new IllegalStateException("not carried")))
                .as("shard 1's acks went alone; nothing carried there")
                .isNull();
        assertThat(batch.settleCarried(shards[0], List.of(1L, 0L))).isNull();
        assertThat(inFlight.pendingOutcomes()).isEmpty();
    }

    @Test
    void theAcksOfAFailedClaimGoBack() {
        InFlight.Outcome a = ack(shards[0], "a");
        InFlight.Outcome b = ack(shards[1], "b");
        inFlight.requeue(List.of(a, b));
        OutcomeSender.Batch batch = sender.take();
        batch.carry(shards[0]);
        RuntimeException failure = new IllegalStateException("claim failed");

        assertThat(batch.settle(List.of(List.of(1L)))).isNull();
        assertThat(batch.settleCarried(shards[0], failure)).isSameAs(failure);
        assertThat(inFlight.pendingOutcomes()).containsExactly(a);
    }

    /** A claim carries one call's worth of acks; the rest of the shard's go alone in the same pipeline. */
    @Test
    void aClaimCarriesAtMostOneCallOfAcks() {
        List<InFlight.Outcome> queued = new ArrayList<>();
        for (int i = 0; i < OutcomeSender.ACKS_PER_CALL + 3; i++) {
            queued.add(ack(shards[0], "t" + i));
        }
        inFlight.requeue(queued);
        OutcomeSender.Batch batch = sender.take();

        assertThat(batch.carry(shards[0])).hasSize(2 * OutcomeSender.ACKS_PER_CALL);
        assertThat(batch.calls()).singleElement().satisfies(c -> assertThat(c.args())
                .extracting(x -> new String(x, UTF_8))
                .containsExactly("t500", "t-t500", "t501", "t-t501", "t502", "t-t502"));
        RuntimeException failure = new IllegalStateException("claim failed");
        assertThat(batch.settle(List.of(List.of(1L, 1L, 1L)))).isNull();
        assertThat(batch.settleCarried(shards[0], failure)).isSameAs(failure);
        assertThat(inFlight.pendingOutcomes())
                .containsExactlyElementsOf(queued.subList(0, OutcomeSender.ACKS_PER_CALL));
    }

    /**
     * The acks of a shard that no claim of this pass carries but that is claimed on soon wait for
     * that claim: they go back to be taken by a later pass, and a failed pipeline does not put them
     * back twice.
     */
    @Test
    void theAcksOfAShardClaimedOnSoonAreHeldForThatClaim() {
        InFlight.Outcome a = ack(shards[0], "a");
        InFlight.Outcome b = ack(shards[1], "b");
        InFlight.Outcome nack = new InFlight.Outcome(delivery(shards[1], "n"), false, 10);
        inFlight.requeue(List.of(a, b, nack));
        OutcomeSender.Batch batch = sender.take();

        assertThat(batch.carry(shards[1])).hasSize(2);
        assertThat(batch.hold(shard -> true)).as("shard 0's acks held").isTrue();
        assertThat(inFlight.pendingOutcomes()).containsExactly(a);
        assertThat(batch.calls())
                .as("the nack alone: shard 1's ack is carried, shard 0's held")
                .singleElement()
                .satisfies(c -> assertThat(c.script()).isEqualTo(Script.NACK));
        batch.failed();
        assertThat(inFlight.pendingOutcomes()).containsExactlyInAnyOrder(a, b, nack);
    }

    @Test
    void nothingIsHeldForAShardNotClaimedOnSoon() {
        InFlight.Outcome a = ack(shards[0], "a");
        inFlight.requeue(List.of(a));
        OutcomeSender.Batch batch = sender.take();

        assertThat(batch.hold(shard -> shard != shards[0])).isFalse();
        assertThat(batch.calls()).singleElement().satisfies(c -> assertThat(c.script())
                .isEqualTo(Script.ACK));
        assertThat(inFlight.pendingOutcomes()).isEmpty();
    }

    /** Nacks are not carried: a claim carries acks only. */
    @Test
    void aShardWithOnlyNacksHasNothingToCarry() {
        InFlight.Outcome nack = new InFlight.Outcome(delivery(shards[0], "a"), false, 10);
        inFlight.requeue(List.of(nack));
        OutcomeSender.Batch batch = sender.take();

        assertThat(batch.carry(shards[0])).isEmpty();
        assertThat(batch.calls()).singleElement().satisfies(c -> assertThat(c.script())
                .isEqualTo(Script.NACK));
    }

    private static InFlight.Outcome ack(ShardKeys shard, String id) {
        return new InFlight.Outcome(delivery(shard, id), true, 0);
    }

    private static Delivery delivery(ShardKeys shard, String id) {
        return new Delivery(shard, id, new byte[0], Instant.EPOCH, 1, ("t-" + id).getBytes(UTF_8));
    }
}
