package dev.hourglass.redis;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.CRC32;

/**
 * The Redis keys of one shard of one queue. All share the hash tag {@code {namespace:queue:shard}},
 * so in a Redis Cluster one shard lives in one slot and its scripts may touch all its keys, while the
 * shards of a queue spread over the cluster. A timer's shard is the CRC-32 of its id's UTF-8 bytes
 * modulo the shard count: stable across JVMs, versions and languages.
 *
 * <p>Complexity: O(1) per lookup. Ordering: not applicable. Thread-safety: immutable.
 */
final class ShardKeys {
    private final String namespace;
    private final String queue;
    private final int shard;
    private final List<byte[]> keys;

    private ShardKeys(String namespace, String queue, int shard) {
        this.namespace = namespace;
        this.queue = queue;
        this.shard = shard;
        String tag = "{" + namespace + ":" + queue + ":" + shard + "}:";
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
            all[i] = new ShardKeys(namespace, queue, i);
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

    /** Returns the keys in the order the scripts expect (see {@link Script}). */
    List<byte[]> keys() {
        return keys;
    }

    /** Returns the key of the sorted set that holds the timers in a state. */
    byte[] stateKey(TimerState state) {
        return switch (state) {
            case SCHEDULED -> keys.get(0);
            case CLAIMED -> keys.get(1);
            case DEAD -> keys.get(2);
        };
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
