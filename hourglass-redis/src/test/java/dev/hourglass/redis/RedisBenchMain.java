package dev.hourglass.redis;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.Jedis;

/**
 * Hourglass's durable timers beside two comparisons, in one run against one freshly started
 * redis-server (AOF on): {@link RedisTimers} with its defaults ({@link Durability#fsync()}, which on
 * Redis 7.0 needs {@code appendfsync always}) and with {@link Durability#memory()}; the {@link
 * LeasePoller} baseline; Redisson's {@code RDelayedQueue}. The three others run with {@code
 * appendfsync everysec} (set per measurement with CONFIG SET; none of them waits for more). A plain
 * main, not JMH: the subject is a separate server process and several clients. Run as docs/redis.md
 * shows; arguments are {@code key=value} (see {@link #DEFAULTS}). Prints the machine, then a markdown
 * table of mean (min–max) over the repetitions.
 */
public final class RedisBenchMain {
    /** Every option and its default: timers for (a) and (b), rates and seconds for (c) and (d). */
    static final Map<String, String> DEFAULTS = defaults();

    private RedisBenchMain() {}

    private static Map<String, String> defaults() {
        Map<String, String> d = new LinkedHashMap<>();
        d.put("n", "50000"); // (a) batched and (b) fire
        d.put("single", "20000"); // (a) one at a time
        d.put("threads", "4"); // (a) one at a time
        d.put("cpuRate", "2500"); // (c)
        d.put("lateRate", "10000"); // (d)
        d.put("seconds", "10"); // (c) and (d)
        d.put("delayMs", "1000"); // (c) and (d): due this long after it is scheduled
        d.put("reps", "3");
        d.put("warmup", "true"); // one unrecorded round at a tenth of the size first
        d.put("contenders", "all"); // or a comma-separated list of indexes of BenchContender.all()
        return d;
    }

    /** What a run produced: the table, and per contender the timers the fire workloads expected and got. */
    record Report(
            BenchTable table, Map<String, Long> expected, Map<String, Long> fired, Map<String, Long> deliveries) {}

    /**
     * Runs the benchmark with the defaults or {@code key=value} overrides, and prints the results.
     *
     * @param args overrides of {@link #DEFAULTS}
     * @throws Exception if the benchmark fails
     */
    public static void main(String[] args) throws Exception {
        run(options(args), System.out);
    }

    static Map<String, String> options(String... args) {
        Map<String, String> o = new LinkedHashMap<>(DEFAULTS);
        for (String a : args) {
            int eq = a.indexOf('=');
            if (eq < 0 || !o.containsKey(a.substring(0, eq))) {
                throw new IllegalArgumentException(
                        "argument must be key=value with a key of " + DEFAULTS.keySet() + ": '" + a + "'");
            }
            o.put(a.substring(0, eq), a.substring(eq + 1));
        }
        return o;
    }

    static Report run(Map<String, String> o, PrintStream out) throws Exception {
        int n = positive(o, "n");
        int single = positive(o, "single");
        int threads = positive(o, "threads");
        int cpuRate = positive(o, "cpuRate");
        int lateRate = positive(o, "lateRate");
        int seconds = positive(o, "seconds");
        long delayMs = positive(o, "delayMs");
        int reps = positive(o, "reps");
        boolean warmup = flag(o, "warmup");
        List<BenchContender.Kind> kinds = contenders(o.get("contenders"));
        BenchTable.Metric batch = new BenchTable.Metric(
                "(a) schedule " + n + ", batched (pipelined/async), 1 thread", "timers/s", 100_000, true, "%,.0f");
        BenchTable.Metric one = BenchTable.Metric.of(
                "(a) schedule " + single + ", one at a time, " + threads + " threads", "timers/s", "%,.0f");
        BenchTable.Metric fire = new BenchTable.Metric(
                "(b) fire " + n + " due at once, " + BenchWorkloads.NODES + " nodes, due → last ack",
                "timers/s",
                100_000,
                true,
                "%,.0f");
        BenchTable.Metric cpuCmd = new BenchTable.Metric(
                "(c) Redis CPU per fired timer at " + cpuRate + "/s, INFO commandstats", "µs", 20, false, "%.1f");
        BenchTable.Metric cpuInfo = BenchTable.Metric.of("(c) same, INFO cpu (user+sys)", "µs", "%.1f");
        BenchTable.Metric rateC = BenchTable.Metric.of("(c) schedule rate reached", "timers/s", "%,.0f");
        BenchTable.Metric p50 = BenchTable.Metric.of("(d) lateness p50 at " + lateRate + "/s", "ms", "%.0f");
        BenchTable.Metric p99 = new BenchTable.Metric("(d) lateness p99", "ms", 50, false, "%.0f");
        BenchTable.Metric max = BenchTable.Metric.of("(d) lateness max", "ms", "%.0f");
        BenchTable.Metric rateD = BenchTable.Metric.of("(d) schedule rate reached", "timers/s", "%,.0f");

        String loadStart = loadAverage();
        BenchTable table = new BenchTable();
        Map<String, BenchWorkloads> workloads = new LinkedHashMap<>();
        Map<String, Long> expected = new LinkedHashMap<>();
        try (RedisServerProcess server = RedisServerProcess.start("always");
                Jedis admin = server.client()) {
            out.println("# Redis timers benchmark");
            out.println();
            out.println("- date: " + Instant.now());
            out.println("- command: java "
                    + String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments())
                    + " -cp <test class path> " + RedisBenchMain.class.getName() + " " + join(o));
            out.println("- machine: " + Runtime.getRuntime().availableProcessors() + " cpus (" + cpuModel()
                    + "), load average at start " + loadStart);
            out.println(
                    "- java: " + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
            out.println("- redis: " + field(admin.info("server"), "redis_version") + ", appendonly yes, no RDB, on"
                    + " 127.0.0.1; appendfsync per contender as shown");
            out.println("- contenders (columns), each against the same server, flushed before every measurement:");
            for (BenchContender.Kind k : kinds) {
                out.println("  - " + k.label() + ": appendfsync " + k.appendfsync());
            }
            out.flush();
            if (warmup) {
                warmUp(kinds, server.port(), admin, n, single, threads, delayMs);
            }
            for (int r = 1; r <= reps; r++) {
                for (BenchContender.Kind k : kinds) {
                    String col = k.label();
                    BenchWorkloads w = workloads.computeIfAbsent(col, c -> new BenchWorkloads(server.port(), admin));
                    System.err.printf("rep %d/%d: %s%n", r, reps, col);
                    double batched = w.scheduleBatched(k, n);
                    table.add(batch, col, batched);
                    table.add(one, col, w.scheduleSingly(k, single, threads));
                    long lead = Math.max(1_000, (long) (2_000.0 * n / batched) + 500);
                    table.add(fire, col, w.fire(k, n, lead));
                    BenchWorkloads.Steady c = w.steady(k, cpuRate, seconds, delayMs);
                    table.add(cpuCmd, col, c.commandUsecPerTimer());
                    table.add(cpuInfo, col, c.cpuUsecPerTimer());
                    table.add(rateC, col, c.achievedRate());
                    BenchWorkloads.Steady d = w.steady(k, lateRate, seconds, delayMs);
                    table.add(p50, col, d.p50());
                    table.add(p99, col, d.p99());
                    table.add(max, col, d.max());
                    table.add(rateD, col, d.achievedRate());
                    expected.merge(col, (long) n + (long) (cpuRate + lateRate) * seconds, Long::sum);
                }
            }
        }
        Map<String, Long> fired = new LinkedHashMap<>();
        Map<String, Long> deliveries = new LinkedHashMap<>();
        workloads.forEach((col, w) -> {
            fired.put(col, w.fired());
            deliveries.put(col, w.deliveries());
        });
        out.println("- load average at end " + loadAverage() + "; " + reps + " repetitions, each cell mean (min–max)");
        out.println();
        out.print(table.markdown());
        out.println();
        out.println("Fire workloads (" + BenchWorkloads.NODES + " consumer nodes in this JVM): timers scheduled,"
                + " delivered at least once, deliveries in all (more = repeats):");
        expected.forEach((col, e) -> out.printf(
                "- %s: %,d scheduled, %,d delivered, %,d deliveries%n", col, e, fired.get(col), deliveries.get(col)));
        out.flush();
        return new Report(table, expected, fired, deliveries);
    }

    /** Runs every workload once, a tenth of the size, unrecorded: the JIT's first compilations are not the subject. */
    private static void warmUp(
            List<BenchContender.Kind> kinds, int port, Jedis admin, int n, int single, int threads, long delayMs)
            throws Exception {
        BenchWorkloads w = new BenchWorkloads(port, admin);
        for (BenchContender.Kind k : kinds) {
            System.err.println("warm-up: " + k.label());
            w.scheduleBatched(k, Math.max(1, n / 10));
            w.scheduleSingly(k, Math.max(1, single / 10), threads);
            w.fire(k, Math.max(1, n / 10), 1_000);
            w.steady(k, Math.min(1_000, Math.max(1, n / 10)), 1, delayMs);
        }
    }

    private static List<BenchContender.Kind> contenders(String spec) {
        List<BenchContender.Kind> all = BenchContender.all();
        if (spec.equals("all")) {
            return all;
        }
        return Arrays.stream(spec.split(","))
                .map(s -> all.get(Integer.parseInt(s.trim())))
                .toList();
    }

    private static int positive(Map<String, String> o, String key) {
        int v = Integer.parseInt(o.get(key));
        if (v < 1) {
            throw new IllegalArgumentException(key + " must be at least 1: " + v);
        }
        return v;
    }

    private static boolean flag(Map<String, String> o, String key) {
        String v = o.get(key);
        if (!v.equals("true") && !v.equals("false")) {
            throw new IllegalArgumentException(key + " must be true or false: " + v);
        }
        return v.equals("true");
    }

    private static String join(Map<String, String> o) {
        StringBuilder b = new StringBuilder();
        o.forEach((k, v) ->
                b.append(b.length() == 0 ? "" : " ").append(k).append('=').append(v));
        return b.toString();
    }

    private static String field(String info, String name) {
        return info.lines()
                .filter(l -> l.startsWith(name + ":"))
                .map(l -> l.substring(name.length() + 1).trim())
                .findFirst()
                .orElse("?");
    }

    private static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException e) {
            return String.format(
                    "%.2f", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        }
    }

    private static String cpuModel() {
        try {
            return field(Files.readString(Path.of("/proc/cpuinfo")).replace("\t", ""), "model name");
        } catch (IOException e) {
            return System.getProperty("os.arch");
        }
    }
}
