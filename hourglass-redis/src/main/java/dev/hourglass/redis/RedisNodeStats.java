package dev.hourglass.redis;

import java.time.Duration;

/**
 * A snapshot of what one node of a {@link RedisTimers} fleet did since it started: schedules it
 * acknowledged, deliveries it made, retries and dead letters its outcomes caused, deliveries
 * running now, and how late it claimed timers (its lag). These are the node's own counts, kept in
 * memory without a Redis call; the fleet's timers by state are {@link RedisTimers#stats(String)},
 * which asks Redis.
 *
 * <p>Complexity: O(1) to read. Ordering: not applicable. Thread-safety: immutable.
 */
public final class RedisNodeStats {
    private final long scheduled;
    private final long fired;
    private final long retried;
    private final long dead;
    private final int inFlight;
    private final long lagMillisTotal;
    private final long lagMillisMax;

    RedisNodeStats(
            long scheduled, long fired, long retried, long dead, int inFlight, long lagMillisTotal, long lagMillisMax) {
        this.scheduled = scheduled;
        this.fired = fired;
        this.retried = retried;
        this.dead = dead;
        this.inFlight = inFlight;
        this.lagMillisTotal = lagMillisTotal;
        this.lagMillisMax = lagMillisMax;
    }

    /**
     * Returns how many schedules (and reschedules) this node acknowledged, each request of {@link
     * RedisTimers#scheduleAll} counted once the call returns.
     *
     * @return the count
     */
    public long scheduled() {
        return scheduled;
    }

    /**
     * Returns how many deliveries this node claimed and handed to a handler, retries included.
     *
     * @return the count
     */
    public long fired() {
        return fired;
    }

    /**
     * Returns how many of this node's failed attempts (a handler that threw or ran past its timeout)
     * Redis set to be delivered again after the backoff.
     *
     * @return the count
     */
    public long retried() {
        return retried;
    }

    /**
     * Returns how many timers this node moved to the dead letters: its last failed attempts, and
     * timers whose lease ran out on their last attempt (a crashed node's) that it found while
     * claiming.
     *
     * @return the count
     */
    public long dead() {
        return dead;
    }

    /**
     * Returns how many deliveries this node's handlers are running now.
     *
     * @return the count
     */
    public int inFlight() {
        return inFlight;
    }

    /**
     * Returns the lag of all deliveries summed: for each, the time of the claim minus the time it was
     * due, both by Redis's clock, in whole milliseconds. Divided by {@link #fired()} it is the mean
     * lag.
     *
     * @return the sum
     */
    public Duration lagTotal() {
        return Duration.ofMillis(lagMillisTotal);
    }

    /**
     * Returns the largest lag of a delivery (see {@link #lagTotal()}).
     *
     * @return the largest claim time minus due time
     */
    public Duration lagMax() {
        return Duration.ofMillis(lagMillisMax);
    }

    @Override
    public String toString() {
        return "RedisNodeStats[scheduled=" + scheduled + ", fired=" + fired + ", retried=" + retried + ", dead=" + dead
                + ", inFlight=" + inFlight + ", lagTotal=" + lagMillisTotal + " ms, lagMax=" + lagMillisMax + " ms]";
    }
}
