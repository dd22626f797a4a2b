package dev.hourglass.redis;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import redis.clients.jedis.Jedis;

/**
 * Throughput of durable timers through a local redis-server (started like the tests start it):
 * schedules per second one call at a time (from several threads) and pipelined, then fires per
 * second with two nodes. Run as docs/redis.md shows (java -cp with the test class path)
 * (arguments: timers, default 100000; appendfsync, default everysec).
 */
public final class RedisThroughputMain {
    private static final int SHARDS = 4;

    private RedisThroughputMain() {}

    /**
     * Runs the benchmark and prints the results.
     *
     * @param args timers (default 100000) and appendfsync policy (default everysec; "always" runs the
     *     nodes with {@link Durability#fsync()}, the others with {@link Durability#memory()})
     * @throws Exception if the benchmark fails
     */
    public static void main(String[] args) throws Exception {
        int timers = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        String fsync = args.length > 1 ? args[1] : "everysec";
        byte[] payload = "order-cancel:0123456789".getBytes(UTF_8);
        try (RedisServerProcess server = RedisServerProcess.start(fsync);
                Jedis admin = server.client()) {
            System.out.printf(
                    "redis %s, appendonly yes, appendfsync %s, %d shards, %d timers%n",
                    admin.info("server")
                            .lines()
                            .filter(l -> l.startsWith("redis_version"))
                            .findFirst()
                            .orElse("?"),
                    fsync,
                    SHARDS,
                    timers);
            try (RedisTimers producer = node(server, "producer", 16, fsync)) {
                // one call at a time, 4 threads
                int threads = 4;
                scheduleSingly(producer, "warm", 5_000, threads, payload);
                long t0 = System.nanoTime();
                scheduleSingly(producer, "single", timers, threads, payload);
                report("schedule, one call at a time (" + threads + " threads)", timers, System.nanoTime() - t0);

                // pipelined in chunks of 1,000, one thread; all due at once for the fire phase
                List<TimerRequest> requests = new ArrayList<>(timers);
                for (int i = 0; i < timers; i++) {
                    requests.add(TimerRequest.after("t" + i, Duration.ZERO, payload));
                }
                long t1 = System.nanoTime();
                producer.scheduleAll("fire", requests);
                report("schedule, pipelined (scheduleAll, 1 thread)", timers, System.nanoTime() - t1);
            }

            LongAdder fired = new LongAdder();
            CountDownLatch all = new CountDownLatch(1);
            List<RedisTimers> nodes = List.of(node(server, "node-1", 16, fsync), node(server, "node-2", 16, fsync));
            try {
                long t2 = System.nanoTime();
                for (RedisTimers n : nodes) {
                    n.register("fire", d -> {
                        fired.increment();
                        if (fired.sum() == timers) {
                            all.countDown();
                        }
                    });
                }
                if (!all.await(10, TimeUnit.MINUTES)) {
                    throw new IllegalStateException("only " + fired.sum() + " of " + timers + " fired");
                }
                long handled = System.nanoTime() - t2;
                while (pending(admin) > 0) {
                    Thread.sleep(1); // waits for the last acknowledgements to reach Redis
                }
                long acked = System.nanoTime() - t2;
                report("fire, 2 nodes (claimed and handled)", timers, handled);
                report("fire, 2 nodes (acknowledged)", timers, acked);
                System.out.printf("deliveries: %d (each exactly once: %b)%n", fired.sum(), fired.sum() == timers);
            } finally {
                nodes.forEach(RedisTimers::close);
            }
            admin.info("commandstats")
                    .lines()
                    .filter(l -> l.contains("eval"))
                    .forEach(l -> System.out.println("redis " + l));
        }
    }

    private static RedisTimers node(RedisServerProcess server, String id, int pool, String fsync) {
        return RedisTimers.builder()
                .durability(fsync.equals("always") ? Durability.fsync() : Durability.memory())
                .redis("127.0.0.1", server.port())
                .namespace("bench")
                .queues("warm", "single", "fire")
                .shards(SHARDS)
                .nodeId(id)
                .poolSize(pool)
                .batchSize(500)
                .maxInFlight(2_000)
                .leaseDuration(Duration.ofSeconds(60))
                .build();
    }

    private static void scheduleSingly(RedisTimers node, String queue, int count, int threads, byte[] payload)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int first = t;
                done.add(pool.submit(() -> {
                    for (int i = first; i < count; i += threads) {
                        node.schedule(queue, "s" + i, Duration.ofHours(1), payload);
                    }
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
    }

    private static long pending(Jedis jedis) {
        long n = 0;
        for (ShardKeys shard : ShardKeys.of("bench", "fire", SHARDS)) {
            n += jedis.zcard(shard.stateKey(TimerState.SCHEDULED)) + jedis.zcard(shard.stateKey(TimerState.CLAIMED));
        }
        return n;
    }

    private static void report(String what, int count, long nanos) {
        System.out.printf(
                "%-50s %,10d timers in %7.3f s = %,10.0f /s%n", what, count, nanos / 1e9, count / (nanos / 1e9));
    }
}
