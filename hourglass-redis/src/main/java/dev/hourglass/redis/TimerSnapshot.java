package dev.hourglass.redis;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A durable timer as Redis held it at one moment, read atomically from its shard.
 *
 * <p>Complexity: O(1) accessors. Ordering: not applicable. Thread-safety: immutable except the
 * payload array, which belongs to the caller.
 *
 * @param queue the queue it belongs to
 * @param id its id
 * @param dueTime when it is (or was) due, Redis server time to the millisecond; for a retry, when
 *     its backoff ends
 * @param payload its payload, owned by the caller
 * @param attempts deliveries so far since it was scheduled or requeued
 * @param state where it is in its life
 * @param owner the node id holding its lease while {@link TimerState#CLAIMED}, else empty
 */
public record TimerSnapshot(
        String queue,
        String id,
        Instant dueTime,
        byte[] payload,
        int attempts,
        TimerState state,
        Optional<String> owner) {

    /**
     * Checks the components.
     *
     * @param queue the queue it belongs to
     * @param id its id
     * @param dueTime when it is (or was) due
     * @param payload its payload
     * @param attempts deliveries so far
     * @param state where it is in its life
     * @param owner the node id holding its lease, if claimed
     * @throws NullPointerException if a component is null
     */
    public TimerSnapshot {
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(dueTime, "dueTime");
        Objects.requireNonNull(payload, "payload");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(owner, "owner");
    }

    /**
     * Returns the payload decoded as UTF-8.
     *
     * @return the payload as text
     */
    public String payloadAsString() {
        return new String(payload, StandardCharsets.UTF_8);
    }
}
