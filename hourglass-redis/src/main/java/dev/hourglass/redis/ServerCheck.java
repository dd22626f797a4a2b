package dev.hourglass.redis;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisException;

/**
 * What a node checks on each Redis server that takes writes (the one server, or every master of a
 * Redis Cluster) before it starts: the version (7.0 or later, for script flags), an eviction policy
 * that cannot drop timers, and persistence or replicas that can keep the chosen {@link Durability}.
 * Then it loads every {@link Script}, so the first pipelines do not meet NOSCRIPT. A server that
 * cannot keep a promise is refused with the setting to change. Last, the shard count of every
 * queue is recorded, or compared with the recorded one.
 *
 * <p>Complexity: a few round trips. Ordering: not applicable. Thread-safety: stateless.
 */
final class ServerCheck {
    private ServerCheck() {}

    /**
     * Checks the server and loads the scripts.
     *
     * @param jedis a connection to it
     * @param durability the promise the node will make
     * @param where the server's address, for messages
     * @return how writes wait for the promise on this server
     * @throws RedisTimersException if the server cannot keep the promise or Redis failed
     */
    static WriteWait check(Jedis jedis, Durability durability, String where) {
        try {
            int[] version = version(jedis.info("server"));
            String v = version[0] + "." + version[1];
            if (version[0] < 7) {
                throw refuse(
                        where,
                        "redis_version is " + v + "; hourglass-redis needs Redis 7.0 or later"
                                + " (its scripts declare flags so that Redis refuses a schedule when out of memory)");
            }
            Map<String, String> config = WriteWait.settings(
                    jedis.sendCommand(Protocol.Command.CONFIG, "GET", "maxmemory-policy", "appendonly", "appendfsync"));
            String policy = config.get("maxmemory-policy");
            if (policy == null || policy.startsWith("allkeys-")) {
                throw refuse(
                        where,
                        "maxmemory-policy is " + policy + ": Redis may evict timers when it reaches"
                                + " maxmemory; set maxmemory-policy noeviction (redis.conf, or CONFIG SET"
                                + " maxmemory-policy noeviction)");
            }
            boolean waitAof = version[0] > 7 || version[1] >= 2;
            String aof = config.get("appendonly");
            String fsync = config.get("appendfsync");
            switch (durability.kind()) {
                case FSYNC:
                    if (!"yes".equals(aof)) {
                        throw refuse(
                                where,
                                "appendonly is " + aof + ", so " + durability + " cannot be kept; set"
                                        + " appendonly yes" + (waitAof ? "" : " and appendfsync always")
                                        + ", or choose Durability.memory()");
                    }
                    if (waitAof && "no".equals(fsync)) {
                        throw refuse(
                                where,
                                "appendfsync is no, so WAITAOF never sees the AOF fsynced and every write"
                                        + " of " + durability + " would time out; set appendfsync everysec or"
                                        + " always, or choose Durability.memory()");
                    }
                    if (!waitAof && !"always".equals(fsync)) {
                        throw refuse(
                                where,
                                "appendfsync is " + fsync + " on Redis " + v + ", which has no"
                                        + " WAITAOF, so " + durability + " cannot be kept; set appendfsync always,"
                                        + " use Redis 7.2 or later, or choose Durability.memory()");
                    }
                    break;
                case REPLICAS:
                    String replication = jedis.info("replication");
                    long online = replication
                            .lines()
                            .filter(l -> l.startsWith("slave") && l.contains("state=online"))
                            .count();
                    if (!replication.contains("role:master") || online < durability.replicaCount()) {
                        throw refuse(
                                where,
                                online + " replica(s) online (INFO replication), so " + durability
                                        + " cannot be kept; attach at least " + durability.replicaCount()
                                        + " replica(s) to this master and wait until they are in sync, or choose"
                                        + " another Durability");
                    }
                    break;
                case MEMORY:
                default:
                    break;
            }
            for (Script s : Script.values()) {
                jedis.scriptLoad(s.source());
            }
            return new WriteWait(durability, waitAof);
        } catch (JedisException e) {
            throw new RedisTimersException("cannot start a node on Redis at " + where, e);
        }
    }

    /**
     * Records each queue's shard count in the hash {@code <namespace>:shards} if it is not there yet,
     * and refuses a node whose count differs from the recorded one: nodes that disagree would each
     * leave the other's shards unclaimed. The first record waits for the node's durability, like
     * any write. In a Redis Cluster the hash lives on the master of its slot, so every node reads the
     * same one.
     *
     * @param servers where the hash lives
     * @param wait what the record waits for
     * @param namespace the key prefix
     * @param queues the node's queues
     * @param shards the node's shard count
     * @throws RedisTimersException if a count differs or Redis failed
     */
    static void layout(Servers servers, WriteWait wait, String namespace, Iterable<String> queues, int shards) {
        String key = namespace + ":shards";
        byte[] rawKey = ShardKeys.bytes(key);
        String where = "?";
        try {
            where = servers.owner(rawKey).toString();
            for (String queue : queues) {
                String stored = record(servers, wait, rawKey, queue, shards);
                if (!Integer.toString(shards).equals(stored)) {
                    throw new RedisTimersException("queue '" + queue + "' has " + stored + " shards in Redis at "
                            + where + " (hash " + key + ") but this node was built with shards(" + shards + "):"
                            + " every node must use the same count (a change strands the timers of the"
                            + " shards that disappear)");
                }
            }
        } catch (JedisException e) {
            throw new RedisTimersException("cannot start a node on Redis at " + where, e);
        }
    }

    /**
     * Writes the count if absent and reads it back, waiting for the durability; a wait that falls
     * short (a replica slow to answer while the machine is busy) is tried again, up to 3 times in
     * all: the write is idempotent, and a node should not fail to start on one slow round trip.
     */
    private static String record(Servers servers, WriteWait wait, byte[] key, String queue, int shards) {
        for (int attempt = 1; ; attempt++) {
            try {
                return servers.on(key, jedis -> {
                    try (Pipeline p = jedis.pipelined()) {
                        byte[] field = ShardKeys.bytes(queue);
                        p.hsetnx(key, field, ShardKeys.bytes(Integer.toString(shards)));
                        Response<byte[]> recorded = p.hget(key, field);
                        WriteWait.Check check = wait.append(p);
                        p.sync();
                        check.verify();
                        byte[] value = recorded.get();
                        return value == null ? null : new String(value, StandardCharsets.UTF_8);
                    }
                });
            } catch (WriteWait.NotDurableException e) {
                if (attempt == 3) {
                    throw e;
                }
            }
        }
    }

    private static RedisTimersException refuse(String where, String why) {
        return new RedisTimersException("Redis at " + where + " cannot keep the node's promises: " + why);
    }

    private static int[] version(String info) {
        String v = line(info, "redis_version");
        String[] parts = v.split("\\.");
        return new int[] {Integer.parseInt(parts[0]), parts.length > 1 ? Integer.parseInt(parts[1]) : 0};
    }

    private static String line(String info, String name) {
        for (String l : info.split("\r?\n")) {
            if (l.startsWith(name + ":")) {
                return l.substring(name.length() + 1).trim();
            }
        }
        return "";
    }
}
