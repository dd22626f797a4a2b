package dev.hourglass.redis;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.resps.Slowlog;

/**
 * Where Redis's CPU goes per fired timer in {@link RedisBenchMain}'s steady workload (c): one
 * contender, paced in 1 ms ticks (each tick's timers in one batch), 2 nodes firing them. {@code INFO
 * commandstats} has one EVALSHA row for every script, so the calls are also read from the slow log
 * with a threshold of 0, which names each script (by its SHA-1) and also lists the commands run
 * inside scripts. A script's time includes its {@code redis.call}s, which also appear in their own
 * rows: add the EVALSHA rows for a script's whole cost, not the inner rows as well. The same holds
 * for EXEC (Hourglass's schedules by due time) and the commands of its transaction. The slow log's own
 * cost inflates the times; the calls are exact. Run (after the build of docs/redis.md's "Benchmark"):
 *
 * <pre>
 * java -cp ... dev.hourglass.redis.RedisCpuBreakdownMain 2500 4 0    # rate, seconds, contender
 * </pre>
 */
public final class RedisCpuBreakdownMain {
    private RedisCpuBreakdownMain() {}

    /**
     * Runs the workload once unrecorded, then once recorded, and prints the breakdown.
     *
     * @param args timers per second (default 2500), seconds (default 4), the contender's index in
     *     {@link BenchContender#all()} (default 0, Hourglass's defaults)
     * @throws Exception if the workload fails
     */
    public static void main(String[] args) throws Exception {
        int rate = args.length > 0 ? Integer.parseInt(args[0]) : 2_500;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        BenchContender.Kind kind = BenchContender.all().get(args.length > 2 ? Integer.parseInt(args[2]) : 0);
        Map<String, String> scripts = new HashMap<>();
        for (Script s : Script.values()) {
            scripts.put(new String(s.sha(), StandardCharsets.US_ASCII), s.name());
        }
        int n = rate * seconds;
        try (RedisServerProcess server = RedisServerProcess.start(kind.appendfsync());
                Jedis admin = server.client()) {
            for (int round = 0; round < 2; round++) {
                admin.flushAll();
                try (BenchContender c = kind.factory().open(server.port(), "cpu" + round)) {
                    FireSink sink = new FireSink(n);
                    c.startNodes(BenchWorkloads.NODES, sink);
                    Thread.sleep(500); // the nodes' first passes are not the subject
                    admin.configSet("slowlog-log-slower-than", "0");
                    admin.configSet("slowlog-max-len", Integer.toString(50 * n));
                    admin.slowlogReset();
                    admin.configResetStat();
                    BenchWorkloads.pace(c, rate, n, 1_000, System.nanoTime());
                    if (!sink.await(60, TimeUnit.SECONDS)) {
                        throw new IllegalStateException("only " + sink.distinct() + " of " + n + " delivered");
                    }
                    while (c.pending() > 0) {
                        Thread.sleep(1); // polls Redis for the last acknowledgements: there is nothing to await
                    }
                    if (round == 1) {
                        print(kind, n, admin, scripts);
                    }
                }
            }
        }
    }

    private static void print(BenchContender.Kind kind, int n, Jedis admin, Map<String, String> scripts) {
        System.out.println(kind.label() + ", " + n + " timers; INFO commandstats:");
        admin.info("commandstats")
                .lines()
                .filter(l -> l.startsWith("cmdstat_"))
                .forEach(l -> System.out.println("  " + l));
        Map<String, long[]> rows = new TreeMap<>();
        for (Slowlog e : admin.slowlogGet(50L * n)) {
            List<String> a = e.getArgs();
            String name = a.get(0).toLowerCase(Locale.ROOT);
            if (name.equals("slowlog") || name.equals("info") || name.equals("config")) {
                continue;
            }
            if (name.equals("evalsha") && a.size() > 1) {
                name = "evalsha " + scripts.getOrDefault(a.get(1), a.get(1));
            }
            long[] r = rows.computeIfAbsent(name, k -> new long[2]);
            r[0]++;
            r[1] += e.getExecutionTime();
        }
        System.out.println("slow log (per fired timer):");
        rows.forEach((name, r) -> System.out.printf(
                "  %-26s %7d calls %7.3f/timer %9d usec %6.1f usec/timer %7.1f usec/call%n",
                name, r[0], r[0] / (double) n, r[1], r[1] / (double) n, r[1] / (double) r[0]));
    }
}
