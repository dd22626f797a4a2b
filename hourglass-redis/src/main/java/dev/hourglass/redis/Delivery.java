package dev.hourglass.redis;

import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * One delivery of a due timer to a {@link TimerHandler}. {@link #attempt()} counts deliveries of
 * the timer since it was last scheduled or requeued: 1 for the first, more after a failure or an
 * expired lease, so a handler can tell a possible repeat and deduplicate.
 *
 * <p>Complexity: O(1) accessors. Ordering: not applicable. Thread-safety: immutable except the
 * payload array, which belongs to the handler.
 */
public final class Delivery {
    private final ShardKeys shard;
    private final String id;
    private final byte[] payload;
    private final Instant dueTime;
    private final int attempt;
    private final byte[] token;
    private final Occurrence occurrence; // null for a one-shot timer

    Delivery(ShardKeys shard, String id, byte[] payload, Instant dueTime, int attempt, byte[] token) {
        this(shard, id, payload, dueTime, attempt, token, null);
    }

    Delivery(
            ShardKeys shard,
            String id,
            byte[] payload,
            Instant dueTime,
            int attempt,
            byte[] token,
            Occurrence occurrence) {
        this.occurrence = occurrence;
        this.shard = shard;
        this.id = id;
        this.payload = payload;
        this.dueTime = dueTime;
        this.attempt = attempt;
        this.token = token;
    }

    /**
     * Returns the queue the timer belongs to.
     *
     * @return the queue's name
     */
    public String queue() {
        return shard.queue();
    }

    /**
     * Returns the timer's id.
     *
     * @return the id it was scheduled with
     */
    public String id() {
        return id;
    }

    /**
     * Returns the payload the timer was scheduled with.
     *
     * @return the bytes, owned by the caller
     */
    public byte[] payload() {
        return payload;
    }

    /**
     * Returns the payload decoded as UTF-8.
     *
     * @return the payload as text
     */
    public String payloadAsString() {
        return new String(payload, StandardCharsets.UTF_8);
    }

    /**
     * Returns when this delivery was due, in Redis server time, to the millisecond: the scheduled
     * time, or for a retry after a failure the time the backoff ended.
     *
     * @return the due time
     */
    public Instant dueTime() {
        return dueTime;
    }

    /**
     * Returns the delivery count: 1 for the first delivery since the timer was scheduled (or
     * requeued), 2 for the next and so on; for a recurring timer, of this occurrence.
     *
     * @return the attempt, at least 1
     */
    public int attempt() {
        return attempt;
    }

    /**
     * Returns this delivery's fencing token: a number that grows with every claim, schedule and
     * requeue on the timer's shard. A later attempt of the same timer always has a larger token, so
     * a store that remembers the largest token it has seen per id can refuse the writes of an older
     * attempt (one whose lease was lost while it still ran).
     *
     * @return the token, positive
     */
    public long fencingToken() {
        return Long.parseLong(new String(token, StandardCharsets.US_ASCII));
    }

    /**
     * Returns the occurrence number of a recurring timer: 1 for the first occurrence of the series, 2
     * for the next and so on (slots passed over by the {@link MissedRunPolicy} get no number); 0 for
     * a one-shot timer. With the id it identifies the occurrence across attempts: a handler that
     * deduplicates by (id, occurrence) runs each occurrence once.
     *
     * @return the occurrence number, or 0
     */
    public long occurrence() {
        return occurrence == null ? 0 : occurrence.number();
    }

    /**
     * Returns the slot of a recurring timer's occurrence (the time the series scheduled it for, which
     * stays the same across its attempts), or {@link #dueTime()} for a one-shot timer.
     *
     * @return the slot, in Redis server time
     */
    public Instant occurrenceTime() {
        return occurrence == null ? dueTime : occurrence.slot();
    }

    /** Returns the occurrence of a recurring timer, or null. */
    Occurrence recurring() {
        return occurrence;
    }

    ShardKeys shard() {
        return shard;
    }

    byte[] token() {
        return token;
    }

    @Override
    public String toString() {
        return "Delivery[queue=" + queue() + ", id=" + id + ", due=" + dueTime + ", attempt=" + attempt
                + (occurrence == null ? "" : ", " + occurrence) + "]";
    }
}
