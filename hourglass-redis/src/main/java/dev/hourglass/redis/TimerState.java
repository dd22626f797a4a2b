package dev.hourglass.redis;

/**
 * Where a durable timer is in its life. A timer that fired and was acknowledged, or was cancelled,
 * no longer exists.
 *
 * <p>Complexity, ordering: not applicable. Thread-safety: immutable.
 */
public enum TimerState {
    /** Waiting for its due time, or due and not yet claimed by a node. */
    SCHEDULED,
    /** Claimed by a node that is running its handler, under a lease. */
    CLAIMED,
    /** Parked in the dead letters after its last attempt failed; see {@link RedisTimers#requeue}. */
    DEAD
}
