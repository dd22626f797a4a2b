package dev.hourglass.bench.map;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.Policy;
import com.github.benmanes.caffeine.cache.RemovalCause;
import com.github.benmanes.caffeine.cache.Scheduler;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;

/**
 * Caffeine with variable expiry: {@code expireAfter} and {@code
 * policy().expireVariably().put(key, value, ttl)}, its maintenance on a single-thread executor and
 * its expiry paced by a scheduler thread (without one it expires only when the cache is used), both
 * measured; the eviction listener (called during maintenance, unlike the removal listener, which
 * costs a task per entry) hears the expiries.
 *
 * <p>Complexity: Caffeine's. Ordering: n/a. Thread-safety: safe from any thread.
 */
final class CaffeineMap implements MapUnderTest {

    private final CapturingThreads threads = new CapturingThreads("caffeine-map");
    private final ExecutorService maintenance = Executors.newSingleThreadExecutor(threads);
    private final ScheduledExecutorService pacer = Executors.newSingleThreadScheduledExecutor(threads);
    private final Cache<Integer, Object> cache;
    private final Policy.VarExpiration<Integer, Object> expiration;

    CaffeineMap(IntConsumer onExpiry) {
        cache = Caffeine.newBuilder()
                .executor(maintenance)
                .scheduler(Scheduler.forScheduledExecutorService(pacer))
                .expireAfter(new FixedExpiry())
                .evictionListener((Integer key, Object value, RemovalCause cause) -> {
                    if (cause == RemovalCause.EXPIRED) {
                        onExpiry.accept(key);
                    }
                })
                .build();
        expiration = cache.policy().expireVariably().orElseThrow();
    }

    @Override
    public Object put(Integer key, Object value, long ttlNanos) {
        return expiration.put(key, value, ttlNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public Object get(Integer key) {
        return cache.getIfPresent(key);
    }

    @Override
    public void settle() {
        cache.cleanUp();
    }

    @Override
    public List<Thread> workers() {
        return threads.threads();
    }

    @Override
    public void close() {
        cache.invalidateAll();
        maintenance.shutdownNow();
        pacer.shutdownNow();
    }

    /** Required by {@code expireAfter}; every write here gives its own TTL, reads keep it. */
    static final class FixedExpiry implements Expiry<Integer, Object> {
        private static final long ONE_HOUR = TimeUnit.HOURS.toNanos(1);

        @Override
        public long expireAfterCreate(Integer key, Object value, long currentTime) {
            return ONE_HOUR;
        }

        @Override
        public long expireAfterUpdate(Integer key, Object value, long currentTime, long currentDuration) {
            return currentDuration;
        }

        @Override
        public long expireAfterRead(Integer key, Object value, long currentTime, long currentDuration) {
            return currentDuration;
        }
    }
}
