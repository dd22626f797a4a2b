package dev.hourglass.redis;

import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;

/**
 * A test server as a node routes scripts to it, for tests that run scripts by hand. Kept out of
 * {@link RedisServerProcess}, which other modules' tests load without this module's classes.
 */
final class DirectServers {

    private DirectServers() {}

    /** Returns the server's routing (the caller closes it). */
    static Servers of(RedisServerProcess server) {
        return new StandaloneServers(
                new HostAndPort("127.0.0.1", server.port()),
                DefaultJedisClientConfig.builder().build(),
                2);
    }
}
