package dev.hourglass.redis;

import java.util.List;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.JedisPool;

/**
 * One standalone Redis server, reached through a pool of connections.
 *
 * <p>Complexity: O(1). Ordering: not applicable. Thread-safety: thread-safe.
 */
final class StandaloneServers implements Servers {
    private final HostAndPort address;
    private final JedisPool pool;

    /**
     * Creates the pool (connections are opened on demand).
     *
     * @param address the server
     * @param config the client configuration
     * @param poolSize the most connections
     */
    StandaloneServers(HostAndPort address, JedisClientConfig config, int poolSize) {
        GenericObjectPoolConfig<Jedis> poolConfig = new GenericObjectPoolConfig<>();
        poolConfig.setMaxTotal(poolSize);
        poolConfig.setMaxIdle(poolSize);
        poolConfig.setJmxEnabled(false);
        this.address = address;
        this.pool = new JedisPool(poolConfig, address, config);
    }

    @Override
    public HostAndPort owner(byte[] key) {
        return address;
    }

    @Override
    public Jedis connection(HostAndPort server) {
        return pool.getResource();
    }

    @Override
    public void refresh() {
        // one server: nothing moves
    }

    @Override
    public List<HostAndPort> masters() {
        return List.of(address);
    }

    @Override
    public List<HostAndPort> nodes() {
        return List.of(address);
    }

    @Override
    public void close() {
        pool.close();
    }
}
