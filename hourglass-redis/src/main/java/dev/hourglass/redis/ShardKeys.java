package dev.hourglass.redis;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.CRC32;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * The Redis keys of one shard of one queue. All share the hash tag {@code
 * {namespace:queue:shard:k}}, so in a Redis Cluster one shard lives in one slot and its scripts may
 * touch all its keys. {@code k} is the smallest number that puts the tag's slot in the shard's part
 * of the 16,384 slots cut into {@code shards} equal ranges, so a queue's shards spread evenly over
 * the slots, and so over the masters of a cluster (which own ranges of slots). A timer's shard is the
 * CRC-32 of its id's UTF-8 bytes modulo the shard count: stable across JVMs, versions and languages.
 *
 * <p>Complexity: O(1) per lookup. Ordering: not applicable. Thread-safety: immutable.
 */
final class ShardKeys {
    private final String namespace;
    private final String queue;
    private final int shard;
    private final List<byte[]> keys;

    /** The slots of a Redis Cluster. */
    static final int SLOTS = 16_384;

    private final int slot;

    private ShardKeys(String namespace, String queue, int shard, int shards) {
        this.namespace = namespace;
        this.queue = queue;
        this.shard = shard;
        // slots [from, to) are this shard's part; about SLOTS / (to - from) tries find one
        int from = (int) ((long) shard * SLOTS / shards);
        int to = (int) ((long) (shard + 1) * SLOTS / shards);
        String base = namespace + ":" + queue + ":" + shard + ":";
        int k = 0;
        while (!inRange(slotOf(base + k), from, to)) {
            k++;
        }
        this.slot = slotOf(base + k);
        String tag = "{" + base + k + "}:";
        this.keys = List.of(
                bytes(tag + "due"),
                bytes(tag + "leases"),
                bytes(tag + "dead"),
                bytes(tag + "payload"),
                bytes(tag + "meta"),
                bytes(tag + "seq"),
                bytes(tag + "recur"));
    }

    /**
     * Returns the keys of every shard of a queue, indexed by shard.
     *
     * @param namespace the key prefix of the whole deployment
     * @param queue the queue's name
     * @param shards the number of shards, positive
     * @return one entry per shard
     */
    static ShardKeys[] of(String namespace, String queue, int shards) {
        ShardKeys[] all = new ShardKeys[shards];
        for (int i = 0; i < shards; i++) {
            all[i] = new ShardKeys(namespace, queue, i, shards);
        }
        return all;
    }

    /**
     * Returns the shard that holds an id.
     *
     * @param id the timer's id
     * @param shards the number of shards, positive
     * @return a shard index in [0, shards)
     */
    static int shardOf(String id, int shards) {
        CRC32 crc = new CRC32();
        crc.update(bytes(id));
        return (int) (crc.getValue() % shards);
    }

    /** Returns the namespace (the deployment's key prefix). */
    String namespace() {
        return namespace;
    }

    /** Returns the queue's name. */
    String queue() {
        return queue;
    }

    /** Returns this shard's index. */
    int shard() {
        return shard;
    }

    /** Returns the Redis Cluster slot of every key of this shard. */
    int slot() {
        return slot;
    }

    /** Returns the keys in the order the scripts expect (see {@link Script}). */
    List<byte[]> keys() {
        return keys;
    }

    /** Returns "queue shard", what a wake-up message about this shard says after the delay. */
    byte[] wakeTopic() {
        return bytes(queue + " " + shard);
    }

    /** Returns the key of the sorted set that holds the timers in a state. */
    byte[] stateKey(TimerState state) {
        return switch (state) {
            case SCHEDULED -> keys.get(0);
            case CLAIMED -> keys.get(1);
            case DEAD -> keys.get(2);
        };
    }

    private static int slotOf(String tag) {
        return JedisClusterCRC16.getCRC16(tag) & (SLOTS - 1);
    }

    private static boolean inRange(int slot, int from, int to) {
        return slot >= from && slot < to;
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
