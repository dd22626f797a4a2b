package dev.hourglass.redis;

import org.junit.jupiter.api.BeforeAll;

/**
 * {@link RedisTimersTest}'s API tests (schedule, fire, ack, retries, dead letters, reschedule,
 * cancel, lookup, input) on Valkey 8, a Redis 7.2: the nodes' default {@link Durability#fsync()}
 * waits with WAITAOF there, and the server runs with appendfsync everysec so that only WAITAOF can
 * keep it.
 */
class ValkeyRedisTimersTest extends RedisTimersTest {
    /** Hides {@link RedisTimersTest#startRedis()}, so JUnit starts Valkey instead of Redis. */
    @BeforeAll
    static void startRedis() {
        server = RedisServerProcess.start(ServerBinary.VALKEY, "everysec");
    }
}
