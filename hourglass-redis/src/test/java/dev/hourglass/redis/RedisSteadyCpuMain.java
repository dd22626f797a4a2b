package dev.hourglass.redis;

import redis.clients.jedis.Jedis;

/**
 * {@link RedisBenchMain}'s steady workload (c) alone, repeated: Redis's CPU per fired timer by the
 * {@code INFO commandstats} sum, one line per repetition, for one contender. Workload (c) varies by
 * several µs from run to run on a shared machine, so a change to the scripts is judged by running
 * this for the builds before and after it in turn, several rounds each:
 *
 * <pre>
 * java -cp ... dev.hourglass.redis.RedisSteadyCpuMain 3 10 0    # repetitions, seconds, contender
 * </pre>
 */
public final class RedisSteadyCpuMain {
    private RedisSteadyCpuMain() {}

    /**
     * Runs one unrecorded round of 2 s, then the repetitions.
     *
     * @param args repetitions (default 3), seconds each at 2,500 timers/s (default 10), the
     *     contender's index in {@link BenchContender#all()} (default 0, Hourglass's defaults)
     * @throws Exception if the workload fails
     */
    public static void main(String[] args) throws Exception {
        int reps = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        BenchContender.Kind kind = BenchContender.all().get(args.length > 2 ? Integer.parseInt(args[2]) : 0);
        if (reps < 1 || seconds < 1) {
            throw new IllegalArgumentException("repetitions and seconds must be at least 1: " + reps + ", " + seconds);
        }
        int rate = Integer.parseInt(RedisBenchMain.DEFAULTS.get("cpuRate"));
        long delayMillis = Long.parseLong(RedisBenchMain.DEFAULTS.get("delayMs"));
        try (RedisServerProcess server = RedisServerProcess.start(kind.appendfsync());
                Jedis admin = server.client()) {
            BenchWorkloads workloads = new BenchWorkloads(server.port(), admin);
            workloads.steady(kind, rate, 2, delayMillis);
            for (int r = 1; r <= reps; r++) {
                BenchWorkloads.Steady s = workloads.steady(kind, rate, seconds, delayMillis);
                System.out.printf(
                        "%s, %d timers/s for %d s, repetition %d: %.2f us per fired timer by INFO commandstats,"
                                + " %.2f by INFO cpu%n",
                        kind.label(), rate, seconds, r, s.commandUsecPerTimer(), s.cpuUsecPerTimer());
            }
        }
    }
}
