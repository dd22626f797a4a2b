package dev.hourglass.redis;

import redis.clients.jedis.Jedis;

/**
 * {@link RedisBenchMain}'s fire workload (b) alone, repeated: 50,000 timers due at once, 2 nodes,
 * timers/s from the due time to the last acknowledgement, one line per repetition, for one
 * contender. A minute per build instead of the benchmark's six, so a change is judged by running
 * this for the builds before and after it in turn. An optional {@code hash-max-listpack-entries}
 * for the server shows what Redis's compact encoding of small hashes costs a change:
 *
 * <pre>
 * java -cp ... dev.hourglass.redis.RedisFireMain 3 0        # repetitions, contender
 * java -cp ... dev.hourglass.redis.RedisFireMain 3 0 0      # and hash-max-listpack-entries 0
 * </pre>
 */
public final class RedisFireMain {
    private static final int TIMERS = 50_000;

    /** Due this long after the batch starts: enough for it to be stored first on this machine. */
    private static final long LEAD_MILLIS = 1_000;

    private RedisFireMain() {}

    /**
     * Runs one unrecorded round of a tenth of the timers, then the repetitions.
     *
     * @param args repetitions (default 3), the contender's index in {@link BenchContender#all()}
     *     (default 0, Hourglass's defaults), the server's {@code hash-max-listpack-entries} (default:
     *     left as the server has it)
     * @throws Exception if the workload fails
     */
    public static void main(String[] args) throws Exception {
        int reps = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        BenchContender.Kind kind = BenchContender.all().get(args.length > 1 ? Integer.parseInt(args[1]) : 0);
        if (reps < 1) {
            throw new IllegalArgumentException("repetitions must be at least 1: " + reps);
        }
        try (RedisServerProcess server = RedisServerProcess.start(kind.appendfsync());
                Jedis admin = server.client()) {
            if (args.length > 2) {
                admin.configSet("hash-max-listpack-entries", args[2]);
            }
            String listpack = admin.configGet("hash-max-listpack-entries").get("hash-max-listpack-entries");
            BenchWorkloads workloads = new BenchWorkloads(server.port(), admin);
            workloads.fire(kind, TIMERS / 10, LEAD_MILLIS);
            for (int r = 1; r <= reps; r++) {
                System.out.printf(
                        "%s, %d timers due at once, hash-max-listpack-entries %s, repetition %d: %.0f timers/s%n",
                        kind.label(), TIMERS, listpack, r, workloads.fire(kind, TIMERS, LEAD_MILLIS));
            }
        }
    }
}
