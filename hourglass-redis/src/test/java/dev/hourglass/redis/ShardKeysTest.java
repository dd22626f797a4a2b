package dev.hourglass.redis;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;

/** The key layout: hash tags per shard and a stable shard choice. */
class ShardKeysTest {
    @Test
    void everyKeyOfAShardSharesOneHashTag() {
        ShardKeys[] shards = ShardKeys.of("ns", "orders", 3);
        assertThat(shards).hasSize(3);
        assertThat(shards[2].keys())
                .extracting(k -> new String(k, UTF_8))
                .containsExactly(
                        "{ns:orders:2}:due",
                        "{ns:orders:2}:leases",
                        "{ns:orders:2}:dead",
                        "{ns:orders:2}:payload",
                        "{ns:orders:2}:meta",
                        "{ns:orders:2}:seq",
                        "{ns:orders:2}:recur");
        assertThat(shards[1].queue()).isEqualTo("orders");
        assertThat(shards[1].shard()).isEqualTo(1);
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
