package dev.hourglass.redis;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Sends the outcomes of finished deliveries, alone or first in the claim loop's pipeline: the acks
 * of one shard as one {@link Script#ACK} call (up to {@value #ACKS_PER_CALL} a call), or carried by
 * the pass's claim on that shard ({@link Batch#carry}), or held back for a claim soon to come
 * ({@link Batch#hold}); nacks and the ends of recurring occurrences one call each. Redis runs a
 * shard's acks with a handful of commands in all, not a script per timer. Outcomes that could not
 * be sent go back to {@link InFlight} and are sent again by the next pass (acks and nacks are
 * idempotent: a repeat finds another token and does nothing).
 *
 * <p>Complexity: one round trip per master; O(log n) per outcome in Redis. Ordering: not
 * applicable (each outcome touches its own timer). Thread-safety: for the claim loop's thread only.
 */
final class OutcomeSender {
    private static final System.Logger LOG = System.getLogger("dev.hourglass.redis");

    /** The most acks in one script call, so that one call never holds Redis for long. */
    static final int ACKS_PER_CALL = 500;

    private final Servers servers;
    private final InFlight inFlight;
    private final DueShards shards;
    private final NodeCounters counters;
    private final String nodeId;
    private final int maxAttempts;

    /**
     * One script call and the outcomes it carries, in the order of its reply; {@code acksOf} is the
     * shard of an ack call, else null.
     */
    private record Sent(ScriptRunner.Call call, List<InFlight.Outcome> outcomes, ShardKeys acksOf) {}

    OutcomeSender(
            Servers servers,
            InFlight inFlight,
            DueShards shards,
            NodeCounters counters,
            String nodeId,
            int maxAttempts) {
        this.servers = servers;
        this.inFlight = inFlight;
        this.shards = shards;
        this.counters = counters;
        this.nodeId = nodeId;
        this.maxAttempts = maxAttempts;
    }

    /** Sends the outcomes queued so far; on failure puts them back and throws. */
    void flush() {
        Batch batch = take();
        List<ScriptRunner.Call> calls = batch.calls();
        if (calls.isEmpty()) {
            return;
        }
        List<Object> results;
        try {
            results = ScriptRunner.runEach(servers, calls, WriteWait.NONE);
        } catch (RuntimeException e) {
            batch.failed();
            throw e;
        }
        RuntimeException error = batch.settle(results);
        if (error != null) {
            throw error;
        }
    }

    /**
     * Takes the outcomes queued so far, for a pipeline that the caller runs: their calls go first,
     * and the caller hands their replies to {@link Batch#settle} (and those of the claims that carry
     * acks to {@link Batch#settleCarried}) or calls {@link Batch#failed}.
     */
    Batch take() {
        List<InFlight.Outcome> taken = inFlight.drainOutcomes();
        return new Batch(taken, taken.isEmpty() ? List.of() : calls(taken));
    }

    /** Outcomes taken for one pipeline and their calls. */
    final class Batch {
        private final List<InFlight.Outcome> taken;
        private final List<Sent> sent;
        private final Map<ShardKeys, Sent> firstAcks = new LinkedHashMap<>(); // what a claim may carry
        private final Map<ShardKeys, Sent> carried = new IdentityHashMap<>();
        private final Set<Sent> held = Collections.newSetFromMap(new IdentityHashMap<>());

        private Batch(List<InFlight.Outcome> taken, List<Sent> sent) {
            this.taken = taken;
            this.sent = sent;
            for (Sent s : sent) {
                if (s.acksOf() != null) {
                    firstAcks.putIfAbsent(s.acksOf(), s); // ShardKeys has identity equality
                }
            }
        }

        /**
         * Hands the first ack call of {@code shard} to the pass's claim on it, which runs the acks
         * before it claims: the call leaves {@link #calls()}. Call before {@link #calls()}.
         *
         * @param shard the shard claimed on
         * @return the acks' id, token pairs, for the claim's arguments; empty if the shard has none
         */
        List<byte[]> carry(ShardKeys shard) {
            Sent s = firstAcks.get(shard);
            if (s == null || carried.containsKey(shard) || held.contains(s)) {
                return List.of();
            }
            carried.put(shard, s);
            return s.call().args();
        }

        /**
         * Holds back, for a later pass's claim to carry, the first ack call of each shard that no
         * claim of this pass carries and that {@code claimedSoon} names: its outcomes go back to
         * {@link InFlight} and the call leaves {@link #calls()}. Call after {@link #carry}, before
         * {@link #calls()}.
         *
         * @param claimedSoon whether a shard is to be claimed on soon
         * @return whether any call was held back
         */
        boolean hold(Predicate<ShardKeys> claimedSoon) {
            for (Map.Entry<ShardKeys, Sent> e : firstAcks.entrySet()) {
                Sent s = e.getValue();
                if (!carried.containsKey(e.getKey()) && !held.contains(s) && claimedSoon.test(e.getKey())) {
                    held.add(s);
                    inFlight.requeue(s.outcomes());
                }
            }
            return !held.isEmpty();
        }

        /** Returns the calls neither carried nor held back, to run first in the pipeline, in order. */
        List<ScriptRunner.Call> calls() {
            List<ScriptRunner.Call> calls = new ArrayList<>(sent.size());
            for (Sent s : alone()) {
                calls.add(s.call());
            }
            return calls;
        }

        /** The pipeline did not run (a connection failure): every outcome not held back goes back. */
        void failed() {
            Set<InFlight.Outcome> back = Collections.newSetFromMap(new IdentityHashMap<>());
            held.forEach(s -> back.addAll(s.outcomes())); // hold put them back already
            List<InFlight.Outcome> unsent = new ArrayList<>(taken.size());
            for (InFlight.Outcome o : taken) {
                if (!back.contains(o)) {
                    unsent.add(o);
                }
            }
            inFlight.requeue(unsent);
        }

        /**
         * Applies the replies of {@link #calls()} (the first of a pipeline's replies); the outcomes
         * of a call that failed go back. Returns the first failure, or null.
         */
        RuntimeException settle(List<Object> replies) {
            RuntimeException error = null;
            List<Sent> alone = alone();
            for (int i = 0; i < alone.size(); i++) {
                RuntimeException e = settle(alone.get(i), replies.get(i));
                error = error == null ? e : error;
            }
            return error;
        }

        /**
         * Applies what a claim on {@code shard} did with the acks it carried: its 1 or 0 per ack, in
         * order, or its failure (the acks go back).
         *
         * @param shard the shard claimed on
         * @param reply the claim's ack results, or the exception the claim failed with
         * @return the failure, or null (also when the claim carried no acks)
         */
        RuntimeException settleCarried(ShardKeys shard, Object reply) {
            Sent s = carried.get(shard);
            return s == null ? null : settle(s, reply);
        }

        /** The calls neither carried by a claim nor held back, in order. */
        private List<Sent> alone() {
            if (carried.isEmpty() && held.isEmpty()) {
                return sent;
            }
            List<Sent> alone = new ArrayList<>(sent.size());
            for (Sent s : sent) {
                if ((s.acksOf() == null || carried.get(s.acksOf()) != s) && !held.contains(s)) {
                    alone.add(s);
                }
            }
            return alone;
        }

        /** Applies one call's reply, or puts its outcomes back if it failed; returns the failure or null. */
        private RuntimeException settle(Sent s, Object reply) {
            if (reply instanceof RuntimeException e) {
                inFlight.requeue(s.outcomes());
                return e;
            }
            for (int j = 0; j < s.outcomes().size(); j++) {
                applied(s.outcomes().get(j), reply instanceof List<?> l ? (Long) l.get(j) : (Long) reply);
            }
            return null;
        }
    }

    private List<Sent> calls(List<InFlight.Outcome> taken) {
        List<Sent> sent = new ArrayList<>();
        Map<ShardKeys, List<InFlight.Outcome>> acks = new IdentityHashMap<>();
        for (InFlight.Outcome o : taken) {
            Delivery d = o.delivery();
            if (d.recurring() != null && (o.ok() || d.attempt() >= maxAttempts)) {
                sent.add(new Sent(d.recurring().advance(d, o.ok(), nodeId), List.of(o), null));
            } else if (o.ok()) {
                acks.computeIfAbsent(d.shard(), s -> new ArrayList<>()).add(o);
            } else {
                List<byte[]> args =
                        List.of(ShardKeys.bytes(d.id()), d.token(), number(o.backoffMillis()), number(maxAttempts));
                sent.add(new Sent(new ScriptRunner.Call(Script.NACK, d.shard().keys(), args), List.of(o), null));
            }
        }
        for (Map.Entry<ShardKeys, List<InFlight.Outcome>> shard : acks.entrySet()) {
            List<InFlight.Outcome> all = shard.getValue();
            for (int from = 0; from < all.size(); from += ACKS_PER_CALL) {
                List<InFlight.Outcome> part = all.subList(from, Math.min(all.size(), from + ACKS_PER_CALL));
                List<byte[]> args = new ArrayList<>(2 * part.size());
                for (InFlight.Outcome o : part) {
                    args.add(ShardKeys.bytes(o.delivery().id()));
                    args.add(o.delivery().token());
                }
                sent.add(new Sent(
                        new ScriptRunner.Call(Script.ACK, shard.getKey().keys(), args), part, shard.getKey()));
            }
        }
        return sent;
    }

    /** Counts and logs what one outcome did in Redis: 0 ignored, 2 dead-lettered, else done. */
    private void applied(InFlight.Outcome o, long result) {
        Delivery d = o.delivery();
        if (result == 0) {
            LOG.log(
                    Level.DEBUG,
                    () -> "node " + nodeId + ": outcome of " + d + " ignored: rescheduled,"
                            + " cancelled or claimed again meanwhile");
        } else if (result == 2) {
            counters.dead(1);
            LOG.log(Level.WARNING, "node " + nodeId + ": " + d + " failed its last attempt; dead-lettered");
        } else if (!o.ok() && (d.recurring() == null || d.attempt() < maxAttempts)) {
            // a nack (a failed occurrence's last attempt was an advance instead)
            counters.retried();
            // Due again after the backoff: the shard's known time may be far later (the failed
            // delivery's own lease expiry, as its claim reported), so learn the earlier one.
            shards.learn(
                    d.queue(),
                    d.shard().shard(),
                    System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(o.backoffMillis()),
                    false);
        }
    }

    private static byte[] number(long n) {
        return ShardKeys.bytes(Long.toString(n));
    }
}
