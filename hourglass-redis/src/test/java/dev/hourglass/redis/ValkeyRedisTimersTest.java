package dev.hourglass.redis;

import org.junit.jupiter.api.BeforeAll;

/**
 * {@link RedisTimersTest}'s API tests (schedule, fire, ack, retries, dead letters, reschedule,
 * cancel, lookup, input) on Valkey 8, a Redis 7.2: the nodes' default {@link Durability#fsync()}
 * waits with WAITAOF there, and the server runs with appendfsync everysec so that only WAITAOF can
 * keep it.
 */
class ValkeyRedisTimersTest extends RedisTimersTest {
    /**
     * Replaces the server {@link RedisTimersTest#startRedis()} started (JUnit runs a superclass's
     * {@code @BeforeAll} first; a same-named static method here did not stop it, and its Redis
     * was left running after the tests) with Valkey.
     */
    @BeforeAll
    static void startValkeyInstead() {
        server.close();
        server = RedisServerProcess.start(ServerBinary.VALKEY, "everysec");
    }
}
