package dev.hourglass.redis;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link Script#CLAIM} reply, read: Redis's time, the delay to the shard's next due time or lease
 * expiry (-1 for none), whether the batch was full, how many expired leases went to the dead
 * letters, what the acks it carried did, and the claimed timers as deliveries.
 *
 * <p>Complexity: O(timers claimed). Ordering: the claim's (due order within the shard).
 * Thread-safety: immutable once read; the deliveries' payload arrays belong to their handlers.
 *
 * @param redisNow Redis's time at the claim, ms
 * @param delayMillis the delay to the shard's next time, or -1
 * @param full whether the claim took as many timers as it was allowed
 * @param deadLettered how many expired leases it moved to the dead letters
 * @param acks 1 or 0 per ack the claim carried, in order, as {@link Script#ACK} returns them
 * @param deliveries the claimed timers
 */
record ClaimReply(
        long redisNow, long delayMillis, boolean full, long deadLettered, List<Long> acks, List<Delivery> deliveries) {
    /** The fields per claimed timer after the header: id, payload, due, attempt, token, series. */
    private static final int PER_TIMER = 6;

    /**
     * Reads a reply.
     *
     * @param reply the script's reply
     * @param shard the shard it claimed from
     * @param acks how many acks the claim carried
     * @param maxAttempts the node's attempt limit, for recurring timers' occurrences
     * @return the reply, read
     */
    static ClaimReply read(List<?> reply, ShardKeys shard, int acks, int maxAttempts) {
        long now = (Long) reply.get(0);
        int timers = Script.CLAIM_HEADER + acks;
        List<Long> acked = new ArrayList<>(acks);
        for (int j = Script.CLAIM_HEADER; j < timers; j++) {
            acked.add((Long) reply.get(j));
        }
        List<Delivery> deliveries = new ArrayList<>((reply.size() - timers) / PER_TIMER);
        for (int j = timers; j < reply.size(); j += PER_TIMER) {
            int attempt = ((Long) reply.get(j + 3)).intValue();
            deliveries.add(new Delivery(
                    shard,
                    new String((byte[]) reply.get(j), StandardCharsets.UTF_8),
                    reply.get(j + 1) == null ? new byte[0] : (byte[]) reply.get(j + 1),
                    Instant.ofEpochMilli((Long) reply.get(j + 2)),
                    attempt,
                    (byte[]) reply.get(j + 4),
                    reply.get(j + 5) == null
                            ? null
                            : Occurrence.of((byte[]) reply.get(j + 5), now, attempt, maxAttempts)));
        }
        return new ClaimReply(
                now, (Long) reply.get(1), (Long) reply.get(2) == 1, (Long) reply.get(3), acked, deliveries);
    }
}
