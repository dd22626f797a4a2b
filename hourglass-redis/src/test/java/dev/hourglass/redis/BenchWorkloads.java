package dev.hourglass.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import redis.clients.jedis.Jedis;

/**
 * The workloads of {@link RedisBenchMain}, each on a fresh contender over a flushed server whose
 * {@code appendfsync} is set to the contender's. Fire workloads run two consumer nodes in this JVM
 * and fail (throw) unless every timer was delivered at least once and Redis holds none afterwards.
 *
 * <p>Complexity: O(timers). Ordering: not applicable. Thread-safety: not thread-safe; one thread.
 */
final class BenchWorkloads {
    /** Consumer nodes in every fire workload. */
    static final int NODES = 2;

    private static final long FAR_MILLIS = TimeUnit.HOURS.toMillis(1);

    private final int port;
    private final Jedis admin;
    private final AtomicInteger names = new AtomicInteger();
    private long fired;
    private long deliveries;

    /** The figures of one steady run. */
    record Steady(
            double achievedRate, double commandUsecPerTimer, double cpuUsecPerTimer, long p50, long p99, long max) {}

    BenchWorkloads(int port, Jedis admin) {
        this.port = port;
        this.admin = admin;
    }

    /** Returns how many timers the fire workloads delivered (each counted once) so far. */
    long fired() {
        return fired;
    }

    /** Returns how many deliveries the fire workloads saw so far, repeats included. */
    long deliveries() {
        return deliveries;
    }

    private BenchContender fresh(BenchContender.Kind kind) {
        admin.configSet("appendfsync", kind.appendfsync());
        admin.flushAll();
        return kind.factory().open(port, "b" + names.incrementAndGet());
    }

    /** (a) Schedules {@code n} timers due in an hour in one batch; returns timers/s. */
    double scheduleBatched(BenchContender.Kind kind, int n) {
        try (BenchContender c = fresh(kind)) {
            List<BenchContender.Due> timers = new ArrayList<>(n);
            long due = System.currentTimeMillis() + FAR_MILLIS;
            for (int i = 0; i < n; i++) {
                timers.add(new BenchContender.Due(i, due));
            }
            long t0 = System.nanoTime();
            c.scheduleBatch(timers);
            return perSecond(n, System.nanoTime() - t0);
        }
    }

    /** (a) Schedules {@code n} timers due in an hour one call at a time from threads; returns timers/s. */
    double scheduleSingly(BenchContender.Kind kind, int n, int threads) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try (BenchContender c = fresh(kind)) {
            long due = System.currentTimeMillis() + FAR_MILLIS;
            long t0 = System.nanoTime();
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int first = t;
                done.add(pool.submit(() -> {
                    for (int i = first; i < n; i += threads) {
                        c.scheduleOne(i, due);
                    }
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
            return perSecond(n, System.nanoTime() - t0);
        } finally {
            pool.shutdown();
        }
    }

    /**
     * (b) With the nodes running, schedules {@code n} timers all due {@code leadMillis} later (a
     * lead long enough for the batch to be stored first); returns timers/s from the due time to the
     * last acknowledgement (Redis holds none).
     */
    double fire(BenchContender.Kind kind, int n, long leadMillis) throws InterruptedException {
        try (BenchContender c = fresh(kind)) {
            FireSink sink = new FireSink(n);
            c.startNodes(NODES, sink);
            long due = System.currentTimeMillis() + leadMillis;
            List<BenchContender.Due> timers = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                timers.add(new BenchContender.Due(i, due));
            }
            c.scheduleBatch(timers);
            if (System.currentTimeMillis() > due) {
                System.out.printf("note: %s stored the batch after its due time; raise the lead%n", kind.label());
            }
            long end = drain(c, sink, n);
            return n / (Math.max(1, end - due) / 1e3);
        }
    }

    /**
     * (c), (d) Schedules {@code rate} timers a second for {@code seconds}, each due {@code delayMillis}
     * after it is scheduled (paced in 1 ms ticks, a tick's timers in one batch); the nodes fire them.
     * Redis's CPU is measured from just before the first schedule to the last acknowledgement.
     */
    Steady steady(BenchContender.Kind kind, int rate, int seconds, long delayMillis) throws InterruptedException {
        int n = rate * seconds;
        try (BenchContender c = fresh(kind)) {
            FireSink sink = new FireSink(n);
            c.startNodes(NODES, sink);
            Thread.sleep(500); // the nodes' first passes are not the subject
            admin.configResetStat();
            double cpu0 = cpuSeconds();
            long start = System.nanoTime();
            pace(c, rate, n, delayMillis, start);
            double achieved = perSecond(n, System.nanoTime() - start);
            drain(c, sink, n);
            double cpuUsec = (cpuSeconds() - cpu0) * 1e6;
            return new Steady(
                    achieved,
                    commandUsec() / (double) n,
                    cpuUsec / n,
                    sink.latenessPercentile(50),
                    sink.latenessPercentile(99),
                    sink.latenessPercentile(100));
        }
    }

    /** Waits until every timer was delivered and acknowledged; returns the time of the last ack. */
    private long drain(BenchContender c, FireSink sink, int n) throws InterruptedException {
        long timeoutSeconds = 120 + n / 500;
        if (!sink.await(timeoutSeconds, TimeUnit.SECONDS)) {
            throw new IllegalStateException(
                    "only " + sink.distinct() + " of " + n + " timers were delivered within " + timeoutSeconds + " s");
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        long held;
        while ((held = c.pending()) > 0) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(held + " delivered timers were not acknowledged within 60 s");
            }
            Thread.sleep(1); // polls Redis for the last acknowledgements: there is nothing to await
        }
        long end = System.currentTimeMillis();
        fired += sink.distinct();
        deliveries += sink.deliveries();
        return end;
    }

    private double cpuSeconds() {
        double sum = 0;
        for (String line : admin.info("cpu").lines().toList()) {
            if (line.startsWith("used_cpu_user:") || line.startsWith("used_cpu_sys:")) {
                sum += Double.parseDouble(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        return sum;
    }

    /** Sums the usec of every command since the reset, but the benchmark's own INFO and CONFIG. */
    private long commandUsec() {
        long sum = 0;
        for (String line : admin.info("commandstats").lines().toList()) {
            if (!line.startsWith("cmdstat_") || line.startsWith("cmdstat_info") || line.startsWith("cmdstat_config")) {
                continue;
            }
            for (String field : line.substring(line.indexOf(':') + 1).split(",")) {
                if (field.startsWith("usec=")) {
                    sum += Long.parseLong(field.substring(5));
                }
            }
        }
        return sum;
    }

    /**
     * Schedules timers {@code 0..n-1} at a steady {@code rate}/s from {@code start} (a {@link
     * System#nanoTime()} instant), each due {@code delayMillis} after it is sent; the timers that
     * fall due in the same millisecond go in one batch, as a server's tick would send them.
     */
    static void pace(BenchContender c, int rate, int n, long delayMillis, long start) throws InterruptedException {
        int sent = 0;
        while (sent < n) {
            int target = (int) Math.min(n, (System.nanoTime() - start) * rate / 1_000_000_000L + 1);
            if (target > sent) {
                long due = System.currentTimeMillis() + delayMillis;
                if (target - sent == 1) {
                    c.scheduleOne(sent, due);
                } else {
                    List<BenchContender.Due> tick = new ArrayList<>(target - sent);
                    for (int i = sent; i < target; i++) {
                        tick.add(new BenchContender.Due(i, due));
                    }
                    c.scheduleBatch(tick);
                }
                sent = target;
            } else {
                long next = start + (long) sent * 1_000_000_000L / rate;
                TimeUnit.NANOSECONDS.sleep(Math.max(0, Math.min(next - System.nanoTime(), 1_000_000)));
            }
        }
    }

    private static double perSecond(int n, long nanos) {
        return n / (nanos / 1e9);
    }
}
