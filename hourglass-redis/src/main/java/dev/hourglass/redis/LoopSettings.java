package dev.hourglass.redis;

/**
 * Batch, lease, attempts, fallback poll, in-flight limit and claim linger of a node's {@link
 * ClaimLoop}, as the builder checked them.
 *
 * <p>Complexity, ordering: not applicable. Thread-safety: immutable.
 *
 * @param batchSize the most timers one claim script takes from a shard
 * @param leaseMillis how long a claimed timer is leased to this node
 * @param maxAttempts deliveries of a timer before it is dead-lettered
 * @param fallbackMillis the fallback poll period
 * @param maxInFlight the most deliveries held at once
 * @param lingerMillis how long after a shard's next due time it is claimed on, to claim in batches
 */
record LoopSettings(
        int batchSize, long leaseMillis, int maxAttempts, long fallbackMillis, int maxInFlight, long lingerMillis) {}
