package dev.hourglass.redis;

import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

/**
 * One claimed occurrence of a recurring timer, and what ends it: the {@link Script#ADVANCE} that
 * replaces it with the next occurrence. Made by the claim loop from the series record the claim
 * returned ({@code "<occurrence> <slot ms> <recurrence>"}) and the claim's Redis time.
 *
 * <p>The next slot is computed here, at the claim, from the stored slot: the slot after this one,
 * or, when this claim comes more than the lateness allowance after the slot and the policy is {@link
 * MissedRunPolicy#RUN_ONCE} or {@link MissedRunPolicy#SKIP}, the first slot after the claim (the
 * slots in between are missed); for a fixed delay, the delay after the advance. The advance is
 * fenced by the delivery's token and keyed on the occurrence number, so of two nodes (or two sends
 * of one outcome) only one creates the next occurrence.
 *
 * <p>Complexity: O(1), a cron slot O(days searched). Ordering: not applicable. Thread-safety:
 * immutable.
 */
final class Occurrence {
    private static final System.Logger LOG = System.getLogger("dev.hourglass.redis");

    private final long number;
    private final long slotMillis;
    private final boolean runs;
    private final boolean failed;
    private final String nextMode; // "at" (epoch ms), "in" (delay ms) or "end" (no slot left)
    private final long nextMillis;

    private Occurrence(long number, long slotMillis, boolean runs, boolean failed, String nextMode, long nextMillis) {
        this.number = number;
        this.slotMillis = slotMillis;
        this.runs = runs;
        this.failed = failed;
        this.nextMode = nextMode;
        this.nextMillis = nextMillis;
    }

    /**
     * Reads a claimed occurrence.
     *
     * @param record the series record the claim returned
     * @param claimedAtMillis the claim's Redis time
     * @param attempt the delivery's attempt
     * @param maxAttempts the node's attempt limit: past it the occurrence failed for good
     * @return the occurrence
     */
    static Occurrence of(byte[] record, long claimedAtMillis, int attempt, int maxAttempts) {
        String[] p = new String(record, StandardCharsets.UTF_8).split(" ", 3);
        long number = Long.parseLong(p[0]);
        long slot = Long.parseLong(p[1]);
        Recurrence r = Recurrence.decode(p[2]);
        boolean missed = attempt == 1 && claimedAtMillis - slot > r.missedAfterMillis();
        boolean failed = attempt > maxAttempts; // its leases ran out maxAttempts times
        boolean runs = !failed && !(missed && r.missedRunPolicy() == MissedRunPolicy.SKIP);
        boolean late = claimedAtMillis - slot > r.missedAfterMillis(); // on any attempt
        long from = r.missedRunPolicy() != MissedRunPolicy.RUN_ALL && late ? claimedAtMillis : slot;
        return switch (r.kind()) {
            case DELAY -> new Occurrence(number, slot, runs, failed, "in", r.periodMillis());
            case RATE -> {
                long period = r.periodMillis();
                long next = slot + period * (Math.floorDiv(from - slot, period) + 1);
                yield next > TimerRequest.MAX_MILLIS || next < slot
                        ? new Occurrence(number, slot, runs, failed, "end", 0)
                        : new Occurrence(number, slot, runs, failed, "at", next);
            }
            case CRON -> {
                Long next = r.cronNext(from);
                yield next == null
                        ? new Occurrence(number, slot, runs, failed, "end", 0)
                        : new Occurrence(number, slot, runs, failed, "at", next);
            }
        };
    }

    /** Returns the occurrence number, 1 for the first of the series. */
    long number() {
        return number;
    }

    /** Returns the slot it was scheduled for. */
    Instant slot() {
        return Instant.ofEpochMilli(slotMillis);
    }

    /** Returns whether the handler runs: false when it was missed under SKIP or failed for good. */
    boolean runs() {
        return runs;
    }

    /**
     * Returns the call that ends this occurrence and creates the next.
     *
     * @param d the delivery
     * @param ok whether the handler succeeded (true for an occurrence that did not run)
     * @param nodeId for the log line of a failed occurrence
     * @return the {@link Script#ADVANCE} call
     */
    ScriptRunner.Call advance(Delivery d, boolean ok, String nodeId) {
        if (!ok || failed) {
            LOG.log(
                    Level.WARNING,
                    "node " + nodeId + ": occurrence " + number + " of " + d + " failed its last attempt; dropped,"
                            + " the series goes on");
        } else if (!runs) {
            LOG.log(Level.INFO, () -> "node " + nodeId + ": occurrence " + number + " of " + d + " missed; skipped");
        }
        ShardKeys shard = d.shard();
        return new ScriptRunner.Call(
                Script.ADVANCE,
                shard.keys(),
                List.of(
                        ShardKeys.bytes(d.id()),
                        d.token(),
                        ShardKeys.bytes(Long.toString(number)),
                        ShardKeys.bytes(nextMode),
                        ShardKeys.bytes(Long.toString(nextMillis)),
                        RedisTimers.channel(shard.namespace()),
                        ShardKeys.bytes(shard.queue() + " " + shard.shard())));
    }

    @Override
    public String toString() {
        return "occurrence " + number + " (slot " + slot() + ")";
    }
}
