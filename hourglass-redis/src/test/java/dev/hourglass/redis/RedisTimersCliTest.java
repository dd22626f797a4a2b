package dev.hourglass.redis;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The command line over the inspect API, against a real server holding real timers. */
class RedisTimersCliTest {

    @RegisterExtension
    static final RedisServerExtension REDIS = new RedisServerExtension();

    /** What one run printed and returned. */
    private record Run(int status, String out, String err) {}

    private static Run cli(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String[] all = new String[args.length + 2];
        all[0] = "--redis";
        all[1] = "127.0.0.1:" + REDIS.server().port();
        System.arraycopy(args, 0, all, 2, args.length);
        int status = RedisTimersCli.run(all, new PrintStream(out, true, UTF_8), new PrintStream(err, true, UTF_8));
        return new Run(status, out.toString(UTF_8), err.toString(UTF_8));
    }

    private static RedisTimers node(String namespace) {
        return RedisTimers.builder()
                .redis("127.0.0.1", REDIS.server().port())
                .namespace(namespace)
                .queues("orders")
                .shards(2)
                .maxAttempts(1)
                .fallbackPoll(Duration.ofMillis(100))
                .build();
    }

    @Test
    void statsListRequeueCancelAndPurgeActOnTheNodesTimers() throws InterruptedException {
        try (RedisTimers node = node("cli")) {
            node.schedule("orders", "later", Duration.ofHours(1), "x".getBytes(UTF_8));
            node.register("orders", d -> {
                throw new IllegalStateException("fails: dead after its only attempt");
            });
            node.schedule("orders", "failing", Duration.ZERO, "y".getBytes(UTF_8));
            assertThat(Recorder.eventually(
                            () -> node.stats("orders").get(TimerState.DEAD) == 1L, Duration.ofSeconds(20)))
                    .isTrue();
        }

        Run stats = cli("--namespace", "cli", "--shards", "2", "stats", "orders");
        assertThat(stats.status()).as(stats.err()).isZero();
        assertThat(stats.out()).isEqualTo(String.format("scheduled 1%nclaimed 0%ndead 1%n"));

        Run dead = cli("--namespace", "cli", "--shards", "2", "list", "orders");
        assertThat(dead.out())
                .startsWith("failing\tdead\tdue ")
                .contains("attempts 1")
                .contains("payload 1 bytes");
        Run scheduled = cli("--namespace", "cli", "--shards", "2", "list", "orders", "--state", "scheduled");
        assertThat(scheduled.out()).startsWith("later\tscheduled\t").contains("owner -");

        assertThat(cli("--namespace", "cli", "--shards", "2", "requeue", "orders", "later"))
                .isEqualTo(new Run(RedisTimersCli.NOT_FOUND, String.format("not dead: later%n"), ""));
        assertThat(cli("--namespace", "cli", "--shards", "2", "requeue", "orders", "failing"))
                .isEqualTo(new Run(0, String.format("requeued: failing%n"), ""));
        assertThat(cli("--namespace", "cli", "--shards", "2", "cancel", "orders", "failing"))
                .isEqualTo(new Run(0, String.format("cancelled: failing%n"), ""));
        assertThat(cli("--namespace", "cli", "--shards", "2", "cancel", "orders", "failing"))
                .isEqualTo(new Run(RedisTimersCli.NOT_FOUND, String.format("not found: failing%n"), ""));
        assertThat(cli("--namespace", "cli", "--shards", "2", "purge", "orders"))
                .isEqualTo(new Run(0, String.format("purged 0 dead timers%n"), ""));

        try (RedisTimers node = node("cli")) {
            assertThat(node.stats("orders"))
                    .isEqualTo(Map.of(TimerState.SCHEDULED, 1L, TimerState.CLAIMED, 0L, TimerState.DEAD, 0L));
        }
    }

    @Test
    void aShardCountThatDisagreesWithRedisFailsAndSaysSo() {
        try (RedisTimers node = node("cli-shards")) {
            node.schedule("orders", "a", Duration.ofHours(1), new byte[0]);
        }
        Run run = cli("--namespace", "cli-shards", "stats", "orders");
        assertThat(run.status()).isEqualTo(RedisTimersCli.FAILED);
        assertThat(run.err())
                .startsWith("redis stats failed: queue 'orders' has 2 shards in Redis")
                .contains("built with shards(1)");
    }

    @Test
    void badUsageNamesTheArgumentAndTheValue() {
        assertThat(cli("stats")).satisfies(r -> {
            assertThat(r.status()).isEqualTo(RedisTimersCli.BAD_USAGE);
            assertThat(r.err()).startsWith("stats takes QUEUE, got []");
        });
        assertThat(cli("frobnicate", "q").err()).startsWith("unknown command: frobnicate");
        assertThat(cli("--limit", "ten", "list", "q").err()).startsWith("--limit is not a whole number: ten");
        assertThat(cli("--state", "gone", "list", "q").err())
                .startsWith("--state must be scheduled, claimed or dead: gone");
        assertThat(cli("--durability", "paper", "stats", "q").err())
                .startsWith("--durability must be memory or fsync: paper");
        assertThat(cli("--shards", "0", "stats", "q").err()).startsWith("shards must be in 1..1024: 0");
        assertThat(cli("--bogus", "1", "stats", "q").err()).startsWith("unknown option: --bogus");
        assertThat(cli("stats", "q", "--limit").err()).startsWith("--limit needs a value");
        assertThat(cli("list", "q", "--limit", "0"))
                .satisfies(r -> assertThat(r.err()).startsWith("limit must be at least 1: 0"));
        assertThat(cli("--help")).satisfies(r -> {
            assertThat(r.status()).isZero();
            assertThat(r.out()).startsWith("usage: ./hourglass redis [options] COMMAND QUEUE [ID]");
        });
    }

    @Test
    void aServerThatCannotKeepTheDurabilityIsNamedWithTheOptionThatInspectsItAnyway() {
        try (RedisServerProcess everysec = RedisServerProcess.start("everysec")) {
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            String[] args = {"--redis", "127.0.0.1:" + everysec.port(), "stats", "q"};
            int status = RedisTimersCli.run(
                    args, new PrintStream(new ByteArrayOutputStream(), true, UTF_8), new PrintStream(err, true, UTF_8));
            assertThat(status).isEqualTo(RedisTimersCli.FAILED);
            assertThat(err.toString(UTF_8))
                    .contains("appendfsync")
                    .contains("(--durability memory inspects a server that does not fsync every write)");
            String[] memory = {"--redis", "127.0.0.1:" + everysec.port(), "--durability", "memory", "stats", "q"};
            assertThat(RedisTimersCli.run(
                            memory,
                            new PrintStream(new ByteArrayOutputStream(), true, UTF_8),
                            new PrintStream(err, true, UTF_8)))
                    .isZero();
        }
    }

    @Test
    void anUnreachableServerFailsWithStatusThree() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = RedisTimersCli.run(
                new String[] {"--redis", "127.0.0.1:1", "stats", "q"},
                new PrintStream(new ByteArrayOutputStream(), true, UTF_8),
                new PrintStream(err, true, UTF_8));
        assertThat(status).isEqualTo(RedisTimersCli.FAILED);
        assertThat(err.toString(UTF_8)).startsWith("redis stats failed: ");
    }
}
