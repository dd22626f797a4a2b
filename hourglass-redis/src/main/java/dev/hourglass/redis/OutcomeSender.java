package dev.hourglass.redis;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Sends the outcomes of finished deliveries, alone or first in the claim loop's pipeline: the acks of one shard as one {@link
 * Script#ACK} call (up to {@value #ACKS_PER_CALL} a call), nacks and the ends of recurring
 * occurrences one call each. Redis runs a shard's acks with a handful of commands in all, not a
 * script per timer. Outcomes that could not be sent go back to {@link InFlight} and are sent again
 * by the next pass (acks and nacks are idempotent: a repeat finds another token and does nothing).
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

    /** One script call and the outcomes it carries, in the order of its reply. */
    private record Sent(ScriptRunner.Call call, List<InFlight.Outcome> outcomes) {}

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
        if (batch.calls().isEmpty()) {
            return;
        }
        List<Object> results;
        try {
            results = ScriptRunner.runEach(servers, batch.calls(), WriteWait.NONE);
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
     * and the caller hands their replies to {@link Batch#settle} or calls {@link Batch#failed}.
     */
    Batch take() {
        List<InFlight.Outcome> taken = inFlight.drainOutcomes();
        return new Batch(taken, taken.isEmpty() ? List.of() : calls(taken));
    }

    /** Outcomes taken for one pipeline and their calls. */
    final class Batch {
        private final List<InFlight.Outcome> taken;
        private final List<Sent> sent;
        private final List<ScriptRunner.Call> calls;

        private Batch(List<InFlight.Outcome> taken, List<Sent> sent) {
            this.taken = taken;
            this.sent = sent;
            this.calls = new ArrayList<>(sent.size());
            sent.forEach(s -> calls.add(s.call()));
        }

        /** Returns the calls, to run first in the pipeline, in order. */
        List<ScriptRunner.Call> calls() {
            return calls;
        }

        /** The pipeline did not run (a connection failure): every outcome goes back. */
        void failed() {
            inFlight.requeue(taken);
        }

        /**
         * Applies the replies of {@link #calls()} (the first of a pipeline's replies); the outcomes
         * of a call that failed go back. Returns the first failure, or null.
         */
        RuntimeException settle(List<Object> replies) {
            RuntimeException error = null;
            for (int i = 0; i < sent.size(); i++) {
                List<InFlight.Outcome> outcomes = sent.get(i).outcomes();
                Object result = replies.get(i);
                if (result instanceof RuntimeException e) {
                    inFlight.requeue(outcomes);
                    error = error == null ? e : error;
                    continue;
                }
                for (int j = 0; j < outcomes.size(); j++) {
                    applied(outcomes.get(j), result instanceof List<?> l ? (Long) l.get(j) : (Long) result);
                }
            }
            return error;
        }
    }

    private List<Sent> calls(List<InFlight.Outcome> taken) {
        List<Sent> sent = new ArrayList<>();
        Map<ShardKeys, List<InFlight.Outcome>> acks = new IdentityHashMap<>();
        for (InFlight.Outcome o : taken) {
            Delivery d = o.delivery();
            if (d.recurring() != null && (o.ok() || d.attempt() >= maxAttempts)) {
                sent.add(new Sent(d.recurring().advance(d, o.ok(), nodeId), List.of(o)));
            } else if (o.ok()) {
                acks.computeIfAbsent(d.shard(), s -> new ArrayList<>()).add(o);
            } else {
                List<byte[]> args =
                        List.of(ShardKeys.bytes(d.id()), d.token(), number(o.backoffMillis()), number(maxAttempts));
                sent.add(new Sent(new ScriptRunner.Call(Script.NACK, d.shard().keys(), args), List.of(o)));
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
                        new ScriptRunner.Call(Script.ACK, shard.getKey().keys(), args), part));
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
