package dev.hourglass.redis;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import redis.clients.jedis.Jedis;

/**
 * Measures Redis's cost per fired timer at a steady rate with a node's default settings: a producer
 * schedules timers due 1 s later at a fixed rate for a few seconds, one node fires them, and Redis's
 * {@code INFO commandstats} gives the calls and the CPU time Redis spent. Run:
 *
 * <pre>
 * mvn -B -q -pl hourglass-redis -am test-compile dependency:build-classpath \
 *     -Dmdep.outputFile=target/cp.txt -Dmdep.includeScope=test
 * java -cp hourglass-redis/target/test-classes:hourglass-redis/target/classes:$(cat hourglass-redis/target/cp.txt) \
 *     dev.hourglass.redis.ClaimCostMain 2500 8
 * </pre>
 */
public final class ClaimCostMain {
    private ClaimCostMain() {}

    private static double cpuSeconds(Jedis admin) {
        double sum = 0;
        for (String line : admin.info("cpu").lines().toList()) {
            if (line.startsWith("used_cpu_user:") || line.startsWith("used_cpu_sys:")) {
                sum += Double.parseDouble(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        return sum;
    }

    /**
     * Runs the measurement and prints the results.
     *
     * @param args timers per second (default 2500), seconds (default 8) and shards (default 1, the
     *     builder's default)
     * @throws Exception if the measurement fails
     */
    public static void main(String[] args) throws Exception {
        int rate = args.length > 0 ? Integer.parseInt(args[0]) : 2_500;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 8;
        int shards = args.length > 2 ? Integer.parseInt(args[2]) : 1;
        int total = rate * seconds;
        try (RedisServerProcess server = RedisServerProcess.start("everysec");
                Jedis admin = server.client()) {
            LongAdder fired = new LongAdder();
            double cpu;
            CountDownLatch all = new CountDownLatch(1);
            try (RedisTimers node = RedisTimers.builder()
                    .redis("127.0.0.1", server.port())
                    .namespace("cost")
                    .queues("q")
                    .shards(shards)
                    .durability(Durability.memory())
                    .build()) {
                node.register("q", d -> {
                    fired.increment();
                    if (fired.sum() == total) {
                        all.countDown();
                    }
                });
                admin.configResetStat();
                double cpu0 = cpuSeconds(admin);
                byte[] payload = "p".getBytes(UTF_8);
                long start = System.nanoTime();
                for (int i = 0; i < total; i++) {
                    long at = start + TimeUnit.SECONDS.toNanos(i) / rate;
                    long wait;
                    while ((wait = at - System.nanoTime()) > 0) {
                        TimeUnit.NANOSECONDS.sleep(Math.min(wait, 1_000_000));
                    }
                    node.schedule("q", "t" + i, Duration.ofSeconds(1), payload);
                }
                if (!all.await(2, TimeUnit.MINUTES)) {
                    throw new IllegalStateException("only " + fired.sum() + " of " + total + " fired");
                }
                Thread.sleep(500); // the last acknowledgements
                cpu = cpuSeconds(admin) - cpu0;
            }
            long scripts = 0;
            long scriptUsec = 0;
            for (String line : admin.info("commandstats").lines().toList()) {
                if (!line.startsWith("cmdstat_")) {
                    continue;
                }
                System.out.println("redis " + line);
                if (!line.startsWith("cmdstat_evalsha:")) {
                    continue;
                }
                for (String field : line.substring(line.indexOf(':') + 1).split(",")) {
                    if (field.startsWith("usec=")) {
                        scriptUsec += Long.parseLong(field.substring(5));
                    } else if (field.startsWith("calls=")) {
                        scripts += Long.parseLong(field.substring(6));
                    }
                }
            }
            System.out.printf(
                    "%d timers at %d/s, %d shard(s), per fired timer (schedule, claim and ack included): %.2f"
                            + " scripts, %.1f µs in scripts, %.1f µs of Redis CPU (INFO cpu)%n",
                    total, rate, shards, scripts / (double) total, scriptUsec / (double) total, cpu * 1e6 / total);
        }
    }
}
