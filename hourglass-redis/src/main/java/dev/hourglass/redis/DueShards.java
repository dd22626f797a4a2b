package dev.hourglass.redis;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a node knows of when each shard it handles next has work: the earliest due time or lease
 * expiry its last claim reported, or a wake-up message announced, as a local {@link
 * System#nanoTime()} instant. A pass claims only the shards whose time has come, so a finished
 * delivery or a busy neighbour shard costs no claim scripts on idle shards. No shard's time is more
 * than the fallback period after its last claim, which bounds the cost of a lost wake-up message.
 *
 * <p>Complexity: O(shards) per pass, O(1) per wake-up message. Ordering: not applicable.
 * Thread-safety: every method may be called from any thread (one lock).
 */
final class DueShards {
    /** One shard of a handled queue. */
    static final class Shard {
        private final ShardKeys keys;
        private final TimerHandler handler;
        private long dueNanos; // guarded by the DueShards
        private boolean hinted; // guarded by the DueShards: a hint came after the last claim was sent
        private long hintNanos; // guarded by the DueShards; the earliest such hint
        private boolean dueNowHinted; // guarded by the DueShards: such a hint was of a timer due at once
        private boolean claimingDueNow; // guarded by the DueShards: the claim under way answers one

        private Shard(ShardKeys keys, TimerHandler handler, long dueNanos) {
            this.keys = keys;
            this.handler = handler;
            this.dueNanos = dueNanos;
        }

        ShardKeys keys() {
            return keys;
        }

        TimerHandler handler() {
            return handler;
        }
    }

    private final Map<String, Shard[]> byQueue = new HashMap<>(); // guarded by this
    private final List<Shard> all = new ArrayList<>(); // guarded by this

    /**
     * Adds a queue's shards, due at once; false if the queue was already there.
     *
     * @param queue the queue
     * @param shards its shards
     * @param handler its handler
     * @param nowNanos the current time
     * @return whether they were added
     */
    synchronized boolean add(String queue, ShardKeys[] shards, TimerHandler handler, long nowNanos) {
        if (byQueue.containsKey(queue)) {
            return false;
        }
        Shard[] added = new Shard[shards.length];
        for (int i = 0; i < shards.length; i++) {
            added[i] = new Shard(shards[i], handler, nowNanos);
            all.add(added[i]);
        }
        byQueue.put(queue, added);
        return true;
    }

    /** Returns when a handled queue's shard has work, as its {@link System#nanoTime()} instant. */
    synchronized long time(String queue, int shard) {
        return byQueue.get(queue)[shard].dueNanos;
    }

    /** Returns whether the queue has a handler here. */
    synchronized boolean handles(String queue) {
        return byQueue.containsKey(queue);
    }

    /**
     * Learns that a shard has work at {@code dueNanos}, if that is earlier than what it knew.
     *
     * @param queue the queue
     * @param shard the shard's index; out of range (a node with another layout) means all shards
     * @param dueNanos when
     * @param dueNow whether a timer was due at once when the hint was sent (see {@link
     *     #answersDueNowHint})
     * @return whether the queue is handled here
     */
    synchronized boolean learn(String queue, int shard, long dueNanos, boolean dueNow) {
        Shard[] shards = byQueue.get(queue);
        if (shards == null) {
            return false;
        }
        if (shard >= 0 && shard < shards.length) {
            earlier(shards[shard], dueNanos, dueNow);
        } else {
            for (Shard s : shards) {
                earlier(s, dueNanos, dueNow);
            }
        }
        return true;
    }

    /** Learns that every shard may have work now (wake-up messages were lost). */
    synchronized void allDue(long nowNanos) {
        for (Shard s : all) {
            earlier(s, nowNanos, false);
        }
    }

    /** Notes that claims on these shards are being sent: earlier hints are covered by their replies. */
    synchronized void sending(List<Shard> shards) {
        for (Shard s : shards) {
            s.claimingDueNow = s.dueNowHinted;
            s.hinted = false;
            s.dueNowHinted = false;
        }
    }

    /**
     * Whether the claim under way on a shard answers a hint of a timer due at once: if it found
     * nothing due yet, the timer's due time was rounded up to the next millisecond, and it is claimed
     * then, without the linger.
     */
    synchronized boolean answersDueNowHint(Shard shard) {
        return shard.claimingDueNow;
    }

    /**
     * Sets a shard's time from a claim's reply, unless a hint that came while the claim was under way
     * (a timer the claim may not have seen) is earlier.
     */
    synchronized void set(Shard shard, long dueNanos) {
        shard.dueNanos = shard.hinted && shard.hintNanos - dueNanos < 0 ? shard.hintNanos : dueNanos;
    }

    /** Returns every shard, for heartbeat-free passes and releases. */
    synchronized List<Shard> all() {
        return new ArrayList<>(all);
    }

    /** Returns the shards whose time has come. */
    synchronized List<Shard> due(long nowNanos) {
        List<Shard> out = new ArrayList<>();
        for (Shard s : all) {
            if (s.dueNanos - nowNanos <= 0) {
                out.add(s);
            }
        }
        return out;
    }

    /**
     * Returns whether a handled shard's time is after {@code nowNanos} and at most {@code
     * windowNanos} later: a pass then comes by that time and claims on it if slots are free.
     */
    synchronized boolean dueWithin(ShardKeys keys, long nowNanos, long windowNanos) {
        Shard[] shards = byQueue.get(keys.queue());
        if (shards == null || keys.shard() >= shards.length || shards[keys.shard()].keys != keys) {
            return false;
        }
        long until = shards[keys.shard()].dueNanos - nowNanos;
        return until > 0 && until <= windowNanos;
    }

    /** Returns whether any shard's time has come. */
    synchronized boolean anyDue(long nowNanos) {
        for (Shard s : all) {
            if (s.dueNanos - nowNanos <= 0) {
                return true;
            }
        }
        return false;
    }

    /** Returns the earliest time of a shard that is not due yet, or {@code nowNanos + fallback}. */
    synchronized long next(long nowNanos, long fallbackNanos) {
        long next = nowNanos + fallbackNanos;
        for (Shard s : all) {
            if (s.dueNanos - nowNanos > 0 && s.dueNanos - next < 0) {
                next = s.dueNanos;
            }
        }
        return next;
    }

    private static void earlier(Shard s, long dueNanos, boolean dueNow) {
        if (dueNanos - s.dueNanos < 0) {
            s.dueNanos = dueNanos;
        }
        s.dueNowHinted |= dueNow;
        if (!s.hinted || dueNanos - s.hintNanos < 0) {
            s.hinted = true;
            s.hintNanos = dueNanos;
        }
    }
}
