package dev.hourglass.redis;

import java.time.Duration;
import java.util.Objects;

/**
 * What an acknowledged change (a schedule, cancel, requeue or purge that returned) survives. The
 * node checks at start that the Redis server can keep the promise and refuses to start otherwise;
 * each write then waits for the promise before it returns, one wait per pipeline (so a {@link
 * RedisTimers#scheduleAll} of 1,000 timers pays one wait, not 1,000).
 *
 * <ul>
 *   <li>{@link #memory()}: acknowledged once Redis has applied it in memory. A crash of Redis may
 *       lose it (with {@code appendfsync everysec}, about the last second; without AOF, everything
 *       since the last snapshot). No wait.
 *   <li>{@link #fsync()}: acknowledged once it is in Redis's AOF on disk. On Redis 7.2 and later the
 *       node sends {@code WAITAOF 1 0} after each pipeline (needs {@code appendonly yes} and an
 *       {@code appendfsync} of {@code everysec} or {@code always}; tested on Valkey 8.0.1); on Redis
 *       7.0 and 7.1, which have no {@code WAITAOF}, the node requires {@code appendonly yes} and
 *       {@code appendfsync always} (Redis then writes and fsyncs the AOF before it replies) and reads
 *       both settings again in every write pipeline, so a change at run time makes writes fail
 *       instead of silently weakening the promise (tested on Redis 7.0.15).
 *   <li>{@link #replicas(int, Duration)}: acknowledged once {@code n} replicas have it ({@code WAIT
 *       n timeout} after each pipeline); a failover to one of them keeps it.
 * </ul>
 *
 * <p>Complexity: O(1). Ordering: not applicable. Thread-safety: immutable.
 */
public final class Durability {
    /** The kinds of promise. */
    enum Kind {
        MEMORY,
        FSYNC,
        REPLICAS
    }

    /** How long WAITAOF waits for the fsync: above one second, the longest "everysec" takes. */
    static final long FSYNC_WAIT_MILLIS = 1_500;

    private static final Durability MEMORY = new Durability(Kind.MEMORY, 0, 0);
    private static final Durability FSYNC = new Durability(Kind.FSYNC, 0, FSYNC_WAIT_MILLIS);

    private final Kind kind;
    private final int replicas;
    private final long timeoutMillis;

    private Durability(Kind kind, int replicas, long timeoutMillis) {
        this.kind = kind;
        this.replicas = replicas;
        this.timeoutMillis = timeoutMillis;
    }

    /**
     * Acknowledged when applied in Redis's memory; a Redis crash may lose it.
     *
     * @return the promise
     */
    public static Durability memory() {
        return MEMORY;
    }

    /**
     * Acknowledged when written and fsynced to Redis's AOF (the default).
     *
     * @return the promise
     */
    public static Durability fsync() {
        return FSYNC;
    }

    /**
     * Acknowledged when {@code n} replicas have it.
     *
     * @param n how many replicas, 1 to 100
     * @param timeout how long a write waits for them, 1 ms to 1 minute; less than the client's
     *     socket timeout (checked at build)
     * @return the promise
     * @throws NullPointerException if {@code timeout} is null
     * @throws IllegalArgumentException if an argument is out of range
     */
    public static Durability replicas(int n, Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (n < 1 || n > 100) {
            throw new IllegalArgumentException("replicas must be in 1..100: " + n);
        }
        if (timeout.toMillis() < 1 || timeout.compareTo(Duration.ofMinutes(1)) > 0) {
            throw new IllegalArgumentException("replicas timeout must be in 1 ms..1 minute: " + timeout);
        }
        return new Durability(Kind.REPLICAS, n, timeout.toMillis());
    }

    Kind kind() {
        return kind;
    }

    int replicaCount() {
        return replicas;
    }

    long timeoutMillis() {
        return timeoutMillis;
    }

    @Override
    public String toString() {
        return switch (kind) {
            case MEMORY -> "Durability.memory()";
            case FSYNC -> "Durability.fsync()";
            case REPLICAS -> "Durability.replicas(" + replicas + ", " + timeoutMillis + " ms)";
        };
    }
}
