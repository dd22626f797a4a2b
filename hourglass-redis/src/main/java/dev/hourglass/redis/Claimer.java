package dev.hourglass.redis;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The round trip of a {@link ClaimLoop} pass: in one pipeline the outcomes of finished deliveries
 * (a shard's acks in one call, or in the claim on that shard when the pass claims on it), the lease
 * extensions of running deliveries due a heartbeat (every third of the lease) and one claim script
 * on each shard whose time has come (a rotating subset when free in-flight slots are fewer; never
 * more timers than free slots); then it hands the claimed timers to {@link InFlight}, learns each
 * shard's next time from its reply and tells when the next pass is due.
 *
 * <p>Complexity: O(due shards + heartbeats + other shards with outcomes) scripts plus O(log n) per
 * timer claimed or acknowledged. Ordering: within a shard timers are claimed in due order.
 * Thread-safety: the loop's thread only, but {@link #refill} from any thread.
 */
final class Claimer {
    private static final System.Logger LOG = System.getLogger("dev.hourglass.redis");

    /** How long ahead a shard's claim may be for its acks to wait for it: the outcome window. */
    private static final long ACK_HOLD_NANOS = TimeUnit.MILLISECONDS.toNanos(WakeAlarm.OUTCOME_DELAY_MILLIS);

    private final Servers servers;
    private final InFlight inFlight;
    private final DueShards shards;
    private final NodeCounters counters;
    private final Runnable requestPass;
    private final BooleanSupplier draining;
    private final String nodeId;
    private final int batchSize;
    private final byte[] lease;
    private final long heartbeatNanos;
    private final int maxAttempts;
    private final long fallbackNanos;
    private final int maxInFlight;
    private final long lingerNanos;

    /**
     * Creates the claimer of one node.
     *
     * @param servers the node's connections
     * @param inFlight its deliveries
     * @param shards the shards it claims on, with their next times
     * @param counters its counts
     * @param requestPass asks the loop for another pass
     * @param draining tells whether the node closes, when nothing more is claimed
     * @param nodeId the owner written on claimed timers
     * @param settings batch, lease, attempts, fallback poll, in-flight limit and linger
     */
    Claimer(
            Servers servers,
            InFlight inFlight,
            DueShards shards,
            NodeCounters counters,
            Runnable requestPass,
            BooleanSupplier draining,
            String nodeId,
            LoopSettings settings) {
        this.servers = servers;
        this.inFlight = inFlight;
        this.shards = shards;
        this.counters = counters;
        this.requestPass = requestPass;
        this.draining = draining;
        this.nodeId = nodeId;
        this.batchSize = settings.batchSize();
        this.lease = number(settings.leaseMillis());
        this.heartbeatNanos = TimeUnit.MILLISECONDS.toNanos(Math.max(1, settings.leaseMillis() / 3));
        this.maxAttempts = settings.maxAttempts();
        this.fallbackNanos = TimeUnit.MILLISECONDS.toNanos(settings.fallbackMillis());
        this.maxInFlight = settings.maxInFlight();
        this.lingerNanos = TimeUnit.MILLISECONDS.toNanos(settings.lingerMillis());
    }

    /**
     * Sends {@code outcomes}, extends the leases of running deliveries due a heartbeat, claims and
     * dispatches due timers.
     *
     * @param outcomes the outcomes to send in the same round trip
     * @param pass the pass's number, which rotates the shards claimed on when slots are short
     * @return the delay to the next pass in ms, 0 for at once
     * @throws RuntimeException if Redis fails (the outcomes are then kept, to be sent again)
     */
    long claim(OutcomeSender.Batch outcomes, long pass) {
        long now = System.nanoTime();
        List<InFlight.Running> beats = new ArrayList<>();
        long nextBeat = Long.MAX_VALUE;
        for (InFlight.Running r : inFlight.running()) {
            if (r.leaseLost()) {
                continue;
            }
            long due = r.extendedAtNanos() + heartbeatNanos;
            if (due - now <= heartbeatNanos / 4) { // a little early rather than a round trip more
                beats.add(r);
                nextBeat = Math.min(nextBeat, now + heartbeatNanos);
            } else {
                nextBeat = Math.min(nextBeat, due);
            }
        }
        int capacity = draining.getAsBoolean() ? 0 : inFlight.capacity(maxInFlight);
        List<DueShards.Shard> due = shards.due(now);
        // Only shards whose time has come, and never more timers than free slots: extra claims would
        // wait for a handler thread while their leases run out. With fewer free slots than due
        // shards, a rotating subset claims one timer each; the others stay due for the next pass.
        int claiming = Math.min(due.size(), capacity);
        int start = due.isEmpty() ? 0 : (int) (pass % due.size());
        List<DueShards.Shard> claimed = new ArrayList<>(claiming);
        for (int i = 0; i < claiming; i++) {
            claimed.add(due.get((start + i) % due.size()));
        }
        byte[] batch = number(claiming == 0 ? 0 : Math.min(batchSize, capacity / claiming));
        List<ScriptRunner.Call> claims = new ArrayList<>(claiming);
        int[] carried = new int[claiming]; // the acks each claim carries
        for (int i = 0; i < claiming; i++) {
            List<byte[]> acks = outcomes.carry(claimed.get(i).keys());
            List<byte[]> args = new ArrayList<>(4 + acks.size());
            Collections.addAll(args, batch, lease, number(maxAttempts), ShardKeys.bytes(nodeId));
            args.addAll(acks);
            carried[i] = acks.size() / 2;
            claims.add(new ScriptRunner.Call(Script.CLAIM, claimed.get(i).keys().keys(), args));
        }
        // The acks of a shard claimed on within the outcome window wait for that claim to carry them
        // (with free slots only: the claim waits for them; none are free while draining).
        boolean outcomesWaiting = capacity > 0 && outcomes.hold(keys -> shards.dueWithin(keys, now, ACK_HOLD_NANOS));
        List<ScriptRunner.Call> calls = new ArrayList<>(outcomes.calls());
        for (InFlight.Running r : beats) {
            Delivery d = r.delivery();
            calls.add(new ScriptRunner.Call(
                    Script.EXTEND, d.shard().keys(), List.of(ShardKeys.bytes(d.id()), d.token(), lease)));
        }
        calls.addAll(claims);
        shards.sending(claimed);
        List<Object> results;
        try {
            results = calls.isEmpty() ? List.of() : ScriptRunner.runEach(servers, calls, WriteWait.NONE);
        } catch (RuntimeException e) {
            outcomes.failed();
            throw e;
        }
        // A reply's delay counts from when Redis ran the claim: from the reply's arrival, not from the
        // send, so that a slow round trip never shortens the linger.
        long replied = System.nanoTime();
        RuntimeException outcomeError = outcomes.settle(results);
        int first = calls.size() - beats.size() - claims.size(); // the heartbeats' replies, then the claims'
        for (int i = 0; i < beats.size(); i++) {
            InFlight.Running r = beats.get(i);
            boolean held = results.get(first + i) instanceof Long l && l == 1;
            r.extended(held, now);
            if (!held) {
                LOG.log(
                        Level.WARNING,
                        "node " + nodeId + ": lost the lease of " + r.delivery() + " (" + results.get(first + i)
                                + "); its outcome will be ignored");
            }
        }
        // Every claim's carried acks are settled before any dispatch, which may throw. A failed
        // claim's acks go back, for a pass within the window (the claim's failure is logged below).
        ClaimReply[] replies = new ClaimReply[claimed.size()];
        for (int i = 0; i < claimed.size(); i++) {
            Object result = results.get(first + beats.size() + i);
            ShardKeys keys = claimed.get(i).keys();
            if (result instanceof List<?> l) {
                replies[i] = ClaimReply.read(l, keys, carried[i], maxAttempts);
                outcomes.settleCarried(keys, replies[i].acks());
            } else {
                outcomesWaiting |= outcomes.settleCarried(keys, result) != null;
            }
        }
        for (int i = 0; i < claimed.size(); i++) {
            dispatch(claimed.get(i), results.get(first + beats.size() + i), replies[i], now, replied);
        }
        if (outcomeError != null) {
            throw outcomeError; // after the claims are dispatched; the outcomes are sent again
        }
        long after = System.nanoTime();
        if (!draining.getAsBoolean() && shards.anyDue(after) && refill()) {
            return 0; // more is due and there is room: claim again at once
        }
        // otherwise the next shard time, heartbeat or fallback; a due shard without enough free
        // slots waits for deliveries to end, which request a pass
        long untilBeat = nextBeat == Long.MAX_VALUE ? Long.MAX_VALUE : nextBeat - after;
        long next = Math.min(shards.next(after, fallbackNanos) - after, untilBeat);
        if (outcomesWaiting) {
            next = Math.min(next, ACK_HOLD_NANOS); // they go alone then if no claim carries them
        }
        return Math.max(1, TimeUnit.NANOSECONDS.toMillis(next + 999_999));
    }

    /** Whether enough in-flight slots are free for a claim worth its script. */
    boolean refill() {
        return inFlight.size() == 0 || inFlight.capacity(maxInFlight) >= Math.max(1, maxInFlight / 2);
    }

    /**
     * How long after a claim's reply a shard is claimed on again: the delay to its next due time or
     * lease expiry plus the linger, never more than the fallback period (which bounds what a lost
     * wake-up message costs), which is also the wait when the shard has nothing.
     *
     * @param delayMillis the reply's delay, -1 if nothing, else up to a timer's farthest due time
     * @param lingerNanos the linger to add
     * @param fallbackNanos the fallback poll period
     * @return the wait, ns
     */
    static long untilNextClaim(long delayMillis, long lingerNanos, long fallbackNanos) {
        if (delayMillis < 0 || delayMillis >= TimeUnit.NANOSECONDS.toMillis(fallbackNanos)) {
            return fallbackNanos; // also keeps a due time centuries away from overflowing below
        }
        return Math.min(TimeUnit.MILLISECONDS.toNanos(delayMillis) + lingerNanos, fallbackNanos);
    }

    /**
     * Takes one shard's claim reply: its next time, counted from {@code replied}, and its timers
     * handed to their handler as claimed at {@code now}, when the claim was sent.
     */
    private void dispatch(DueShards.Shard shard, Object result, ClaimReply r, long now, long replied) {
        if (r == null) {
            // the other shards' claims are already made: dispatch them; retry this one later
            LOG.log(
                    Level.WARNING,
                    "node " + nodeId + ": claim on shard " + shard.keys().shard() + " of queue '"
                            + shard.keys().queue() + "' failed: " + result);
            shards.set(shard, replied + fallbackNanos);
            return;
        }
        counters.dead(r.deadLettered());
        long delay = r.delayMillis();
        boolean dueNowMissed = delay <= 1 && r.deliveries().isEmpty() && shards.answersDueNowHint(shard);
        shards.set(
                shard,
                r.full() ? replied : replied + untilNextClaim(delay, dueNowMissed ? 0 : lingerNanos, fallbackNanos));
        for (Delivery d : r.deliveries()) {
            if (d.recurring() != null && !d.recurring().runs()) {
                inFlight.requeue(List.of(new InFlight.Outcome(d, true, 0))); // missed or failed: advance only
                requestPass.run();
                continue;
            }
            counters.fired(r.redisNow() - d.dueTime().toEpochMilli());
            inFlight.dispatch(shard.handler(), d, now);
        }
    }

    private static byte[] number(long n) {
        return ShardKeys.bytes(Long.toString(n));
    }
}
