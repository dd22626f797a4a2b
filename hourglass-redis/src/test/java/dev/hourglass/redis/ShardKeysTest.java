package dev.hourglass.redis;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.util.JedisClusterCRC16;

/** The key layout: hash tags per shard and a stable shard choice. */
class ShardKeysTest {
    @Test
    void everyKeyOfAShardSharesOneHashTag() {
        ShardKeys[] shards = ShardKeys.of("ns", "orders", 3);
        assertThat(shards).hasSize(3);
        // fixed values: a change here moves the keys of existing deployments
        assertThat(shards[2].keys())
                .extracting(k -> new String(k, UTF_8))
                .containsExactly(
                        "{ns:orders:2:0}:due",
                        "{ns:orders:2:0}:leases",
                        "{ns:orders:2:0}:dead",
                        "{ns:orders:2:0}:payload",
                        "{ns:orders:2:0}:meta",
                        "{ns:orders:2:0}:seq",
                        "{ns:orders:2:0}:recur");
        assertThat(shards[1].queue()).isEqualTo("orders");
        assertThat(shards[1].shard()).isEqualTo(1);
        for (ShardKeys shard : shards) {
            for (byte[] key : shard.keys()) {
                assertThat(JedisClusterCRC16.getSlot(key)).isEqualTo(shard.slot());
            }
        }
    }

    /** Shard i of n lives in the i-th of n equal slot ranges: shards spread over a cluster's masters. */
    @Test
    void theShardsOfAQueueSpreadEvenlyOverTheSlots() {
        for (int n : new int[] {1, 2, 3, 8, 100, 1024}) {
            ShardKeys[] shards = ShardKeys.of("hourglass", "orders", n);
            for (int i = 0; i < n; i++) {
                assertThat(shards[i].slot())
                        .as("slot of shard %d of %d", i, n)
                        .isGreaterThanOrEqualTo((int) ((long) i * 16_384 / n))
                        .isLessThan((int) ((long) (i + 1) * 16_384 / n));
                assertThat(JedisClusterCRC16.getSlot(shards[i].keys().get(0))).isEqualTo(shards[i].slot());
            }
        }
        // three masters as redis-cli --cluster create splits the slots: 0-5460, 5461-10922, 10923-16383
        int[] perMaster = new int[3];
        for (ShardKeys shard : ShardKeys.of("hourglass", "orders", 8)) {
            perMaster[shard.slot() <= 5460 ? 0 : shard.slot() <= 10922 ? 1 : 2]++;
        }
        for (int c : perMaster) {
            assertThat(c)
                    .as("shards per master: %s", Arrays.toString(perMaster))
                    .isBetween(2, 3);
        }
    }

    @Test
    void theShardIsTheCrc32OfTheIdModuloTheShardCount() {
        // fixed values: a change here moves timers of existing deployments to other shards
        assertThat(ShardKeys.shardOf("order-42", 8)).isEqualTo(crcMod("order-42", 8));
        assertThat(ShardKeys.shardOf("a", 1024)).isEqualTo(0xe8b7be43L % 1024);
        int[] counts = new int[4];
        for (int i = 0; i < 4_000; i++) {
            counts[ShardKeys.shardOf("id-" + i, 4)]++;
        }
        for (int c : counts) {
            assertThat(c).isBetween(850, 1150);
        }
    }

    private static long crcMod(String id, int shards) {
        CRC32 crc = new CRC32();
        crc.update(id.getBytes(UTF_8));
        return crc.getValue() % shards;
    }
}
