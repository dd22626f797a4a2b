package dev.hourglass.redis;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import redis.clients.jedis.Connection;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.exceptions.JedisClusterOperationException;
import redis.clients.jedis.providers.ClusterConnectionProvider;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * A Redis Cluster: Jedis's {@link ClusterConnectionProvider} keeps the slot map (from {@code
 * CLUSTER SLOTS}) and a pool of connections per node; this class routes a key to the master of its
 * slot and re-reads the map when asked (after a failover or a moved slot).
 *
 * <p>Complexity: O(1) per route; a refresh is a round trip. Ordering: not applicable.
 * Thread-safety: thread-safe.
 */
final class ClusterServers implements Servers {
    private static final System.Logger LOG = System.getLogger("dev.hourglass.redis");

    private final ClusterConnectionProvider provider;

    /**
     * Discovers the cluster from a node of it.
     *
     * @param seed any node of the cluster
     * @param config the client configuration
     * @param poolSize the most connections per node
     */
    ClusterServers(HostAndPort seed, JedisClientConfig config, int poolSize) {
        GenericObjectPoolConfig<Connection> poolConfig = new GenericObjectPoolConfig<>();
        poolConfig.setMaxTotal(poolSize);
        poolConfig.setMaxIdle(poolSize);
        poolConfig.setJmxEnabled(false);
        this.provider = new ClusterConnectionProvider(Set.of(seed), config, poolConfig);
    }

    @Override
    public HostAndPort owner(byte[] key) {
        int slot = JedisClusterCRC16.getSlot(key);
        HostAndPort master = provider.getNode(slot);
        if (master == null) {
            refresh();
            master = provider.getNode(slot);
            if (master == null) {
                throw new JedisClusterOperationException("no master serves slot " + slot + " of the cluster");
            }
        }
        return master;
    }

    @Override
    public Jedis connection(HostAndPort server) {
        return new Jedis(provider.getConnection(server));
    }

    @Override
    public void refresh() {
        try {
            provider.renewSlotCache();
        } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, () -> "cannot read the cluster's slots yet: " + e);
        }
    }

    @Override
    public List<HostAndPort> masters() {
        Set<HostAndPort> masters = new LinkedHashSet<>();
        for (int slot = 0; slot < ShardKeys.SLOTS; slot++) {
            HostAndPort master = provider.getNode(slot);
            if (master == null) {
                throw new JedisClusterOperationException(
                        "slot " + slot + " of the cluster has no master: the cluster is not ready (CLUSTER INFO)");
            }
            masters.add(master);
        }
        return new ArrayList<>(masters);
    }

    @Override
    public List<HostAndPort> nodes() {
        List<HostAndPort> nodes = new ArrayList<>();
        for (String node : provider.getNodes().keySet()) {
            nodes.add(HostAndPort.from(node));
        }
        return nodes;
    }

    @Override
    public void close() {
        provider.close();
    }
}
