package dev.hourglass.redis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisRedirectionException;

/**
 * Where a node's commands go: one standalone server ({@link StandaloneServers}), or in a Redis
 * Cluster the master that owns a key's slot ({@link ClusterServers}). Every command of the node
 * touches the keys of one shard, which share one slot, so commands are routed by a key and the
 * commands of one pipeline are grouped by the master that owns their keys.
 *
 * <p>Complexity: O(1) per route. Ordering: not applicable. Thread-safety: thread-safe.
 */
interface Servers extends AutoCloseable {
    /**
     * Returns the server that owns a key (the one server when standalone).
     *
     * @param key a key
     * @return its master, as far as this node knows
     * @throws redis.clients.jedis.exceptions.JedisException if no master is known for the key's slot
     */
    HostAndPort owner(byte[] key);

    /**
     * Returns a pooled connection to a server; closing it gives it back.
     *
     * @param server a server, from {@link #owner} or a redirection
     * @return a connection
     */
    Jedis connection(HostAndPort server);

    /**
     * Reads the cluster's slot map again, after a connection failure or a redirection; does nothing
     * standalone. Never throws: a failed refresh is retried by the next failure.
     */
    void refresh();

    /**
     * Returns every master, for the checks at start.
     *
     * @return the masters (the one server when standalone)
     */
    List<HostAndPort> masters();

    /**
     * Returns every server known, masters and replicas, where the wake-up subscription may listen
     * (a cluster forwards every PUBLISH to all its nodes).
     *
     * @return the servers, at least one
     */
    List<HostAndPort> nodes();

    /** Closes every connection. */
    @Override
    void close();

    /**
     * Runs an action on the connection to a key's owner. A connection failure or a redirection
     * (the slot moved) refreshes the slot map and is thrown: the caller's command did not succeed.
     *
     * @param key the key the action touches
     * @param action what to run
     * @param <T> its result
     * @return the action's result
     */
    default <T> T on(byte[] key, Function<Jedis, T> action) {
        try (Jedis jedis = connection(owner(key))) {
            return action.apply(jedis);
        } catch (JedisConnectionException | JedisRedirectionException e) {
            refresh();
            throw e;
        }
    }

    /**
     * Groups items by the master that owns their key, keeping their order within each group.
     *
     * @param items the items
     * @param key the key of an item
     * @param <T> the items' type
     * @return master -> its items
     */
    default <T> Map<HostAndPort, List<T>> byOwner(List<T> items, Function<T, byte[]> key) {
        Map<HostAndPort, List<T>> groups = new LinkedHashMap<>();
        for (T item : items) {
            groups.computeIfAbsent(owner(key.apply(item)), k -> new ArrayList<>())
                    .add(item);
        }
        return groups;
    }
}
