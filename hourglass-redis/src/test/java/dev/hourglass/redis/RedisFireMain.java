package dev.hourglass.redis;

import redis.clients.jedis.Jedis;

/**
 * {@link RedisBenchMain}'s fire workload (b) alone, repeated: its {@code n} timers (50,000) due at
 * once, 2 nodes, timers/s from the due time to the last acknowledgement, one line per repetition,
 * for one contender. Seconds per build instead of the benchmark's six minutes, so a change is judged
 * by running this for the builds before and after it in turn. An optional {@code
 * hash-max-listpack-entries} for the server shows what Redis's compact encoding of small hashes
 * costs a change:
 *
 * <pre>
 * java -cp ... dev.hourglass.redis.RedisFireMain 3 0        # repetitions, contender
 * java -cp ... dev.hourglass.redis.RedisFireMain 3 0 0      # and hash-max-listpack-entries 0
 * </pre>
 */
public final class RedisFireMain {
    /**
     * Due this long after the batch starts: enough for the slowest contender (Redisson, about 43,000
     * timers/s batched in the benchmark) to store 50,000 first; the workload says when one did not.
     */
    private static final long LEAD_MILLIS = 3_000;

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
        int listpackEntries = args.length > 2 ? Integer.parseInt(args[2]) : -1;
        if (args.length > 2 && listpackEntries < 0) {
            throw new IllegalArgumentException("hash-max-listpack-entries must be 0 or more: " + listpackEntries);
        }
        int timers = Integer.parseInt(RedisBenchMain.DEFAULTS.get("n"));
        try (RedisServerProcess server = RedisServerProcess.start(kind.appendfsync());
                Jedis admin = server.client()) {
            if (listpackEntries >= 0) {
                admin.configSet("hash-max-listpack-entries", Integer.toString(listpackEntries));
            }
            String listpack = admin.configGet("hash-max-listpack-entries").get("hash-max-listpack-entries");
            BenchWorkloads workloads = new BenchWorkloads(server.port(), admin);
            workloads.fire(kind, timers / 10, LEAD_MILLIS);
            for (int r = 1; r <= reps; r++) {
                System.out.printf(
                        "%s, %d timers due at once, hash-max-listpack-entries %s, repetition %d: %.0f timers/s%n",
                        kind.label(), timers, listpack, r, workloads.fire(kind, timers, LEAD_MILLIS));
            }
        }
    }
}
