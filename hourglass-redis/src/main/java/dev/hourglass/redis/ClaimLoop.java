package dev.hourglass.redis;

import dev.hourglass.timer.Timeout;
import dev.hourglass.timer.Timer;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntToLongFunction;

/**
 * A node's claim loop: one thread that, on each pass, in one pipelined round trip sends the
 * outcomes of finished deliveries ({@link OutcomeSender}: a shard's acks in one call), extends the
 * leases of the deliveries still running (the heartbeat, every third of the lease) and claims due
 * timers from each shard whose time has come (one claim script per shard, up to the batch and the
 * free slots), hands them to {@link InFlight} and arms a local {@link Timer} timeout at the earliest
 * due time or lease expiry plus the claim linger, or heartbeat, capped by the fallback poll period
 * (a shard's own time, too, so that a lost wake-up message delays a timer by that period at most).
 * A pass also runs when a handler is registered, when the {@link WakeSubscriber} hears of an earlier
 * timer or (re)subscribes (then on every shard), and when a delivery ends while a shard is due and
 * half the in-flight slots are free; the outcome of any other delivery that ends is sent within
 * {@value #OUTCOME_DELAY_MILLIS} ms. Passes requested while one runs coalesce into one.
 *
 * <p>Claims never wait for a full handler pool: a pass claims at most the free slots, and a pass
 * still runs (heartbeats, next due times) when there are none, so expired leases of other nodes are
 * recovered by the nodes with free slots and this node's running deliveries keep their leases.
 *
 * <p>When Redis fails the pass is retried after a backoff growing from 50 ms to the fallback period;
 * outcomes that could not be sent are kept and sent again (acks and nacks are idempotent). A failed
 * claim may still have run in Redis (a stall longer than the socket timeout): the next successful
 * pass releases the timers leased to this node under tokens it does not hold, so they are due again
 * at once instead of at the end of their lease.
 *
 * <p>Complexity: per pass O(due shards + heartbeats + shards with outcomes) scripts plus O(log n)
 * per timer claimed or acknowledged. Ordering: within a shard timers are claimed in due order; deliveries then run
 * concurrently. Thread-safety: {@link #request}, {@link #hint}, {@link #resubscribed}, {@link
 * #register} and {@link #close} may be called from any thread; passes run on the loop's own thread
 * only.
 */
final class ClaimLoop {
    private static final System.Logger LOG = System.getLogger("dev.hourglass.redis");

    /** The channel argument of a release that announces nothing. */
    private static final byte[] NO_ANNOUNCEMENT = new byte[0];

    /** How long the outcome of a delivery may wait to be sent with others, in ms. */
    static final long OUTCOME_DELAY_MILLIS = 10;

    private final Servers servers;
    private final Timer timer;
    private final String nodeId;
    private final int batchSize;
    private final long leaseMillis;
    private final long heartbeatNanos;
    private final int maxAttempts;
    private final long fallbackMillis;
    private final byte[] channel;
    private final AtomicLong subscriptions = new AtomicLong();
    private final int maxInFlight;
    private final long lingerNanos;
    private final InFlight inFlight;
    private final OutcomeSender sender;
    private final DueShards shards = new DueShards();
    private final AtomicLong passes = new AtomicLong();
    private final NodeCounters counters = new NodeCounters();
    private final Thread thread;
    private final Object lock = new Object();
    private final Object armLock = new Object();
    private volatile boolean draining;
    private volatile boolean passRunning;
    private boolean requested = true; // guarded by lock; the first pass runs at start
    private boolean closed; // guarded by lock
    private Timeout armed; // guarded by armLock
    private boolean flushAfterPass; // guarded by armLock: an outcome came while a pass ran
    private int failures; // loop thread only

    /**
     * Creates the loop.
     *
     * @param servers the node's connections
     * @param timer arms the wake-ups and the handler timeouts
     * @param handlers how deliveries run
     * @param nodeId the owner written on claimed timers
     * @param channel the wake-up channel, told of released timers
     * @param settings batch, lease, attempts, fallback poll and in-flight limits
     */
    ClaimLoop(
            Servers servers,
            Timer timer,
            HandlerSettings handlers,
            String nodeId,
            byte[] channel,
            LoopSettings settings) {
        this.servers = servers;
        this.timer = timer;
        this.nodeId = nodeId;
        this.channel = channel;
        this.batchSize = settings.batchSize();
        this.leaseMillis = settings.leaseMillis();
        this.heartbeatNanos = TimeUnit.MILLISECONDS.toNanos(Math.max(1, leaseMillis / 3));
        this.maxAttempts = settings.maxAttempts();
        this.fallbackMillis = settings.fallbackMillis();
        this.maxInFlight = settings.maxInFlight();
        this.lingerNanos = TimeUnit.MILLISECONDS.toNanos(settings.lingerMillis());
        this.inFlight = new InFlight(
                handlers.executor(),
                timer,
                nodeId,
                handlers.timeoutMillis(),
                handlers.threads(),
                handlers.backoffMillis(),
                this::ended);
        this.sender = new OutcomeSender(servers, inFlight, shards, counters, nodeId, maxAttempts);
        this.thread = new Thread(this::run, "hourglass-redis-" + nodeId);
        this.thread.setDaemon(true);
    }

    /** Batch, lease, attempts, fallback poll, in-flight limit and claim linger of a loop. */
    record LoopSettings(
            int batchSize,
            long leaseMillis,
            int maxAttempts,
            long fallbackMillis,
            int maxInFlight,
            long lingerMillis) {}

    /** Where handlers run, how long they may take and the retry backoff by attempt. */
    record HandlerSettings(Executor executor, int threads, long timeoutMillis, IntToLongFunction backoffMillis) {}

    void start() {
        thread.start();
    }

    /**
     * Adds a queue's handler; false if the queue already had one.
     *
     * @param queue the queue's name
     * @param shards its shards
     * @param handler its handler
     * @return whether it was added
     */
    boolean register(String queue, ShardKeys[] shards, TimerHandler handler) {
        boolean added = this.shards.add(queue, shards, handler, System.nanoTime());
        request();
        return added;
    }

    /**
     * The wake-up channel was (re)subscribed: messages published while it was away are lost, so
     * every shard is claimed on as soon as the loop is free.
     */
    void resubscribed() {
        shards.allDue(System.nanoTime());
        subscriptions.incrementAndGet();
        request();
    }

    /** Returns how many times the wake-up channel was (re)subscribed (for tests). */
    long subscriptions() {
        return subscriptions.get();
    }

    /** Returns how long until a shard is claimed on, ns, zero or less if now (for tests). */
    long untilClaim(String queue, int shard) {
        return shards.time(queue, shard) - System.nanoTime();
    }

    /** Asks for a pass as soon as the loop is free. */
    void request() {
        synchronized (lock) {
            requested = true;
            lock.notifyAll();
        }
    }

    /**
     * Learns that a timer of {@code queue} is due in {@code delayMillis} and wakes up by then.
     *
     * @param queue the timer's queue; ignored unless this node handles it
     * @param shard the timer's shard (-1 or out of range: any shard of the queue)
     * @param delayMillis the time until it is due, by Redis's clock
     */
    void hint(String queue, int shard, long delayMillis) {
        // a timer due later is claimed a linger after its time, with the timers due meanwhile, and
        // within the fallback period at most (as a claim's reply); due times are rounded up to the
        // next millisecond, so 1 ms ahead may be a timer due now
        long delay = delayMillis <= 1
                ? 0
                : TimeUnit.NANOSECONDS.toMillis(
                        untilNextClaim(delayMillis, lingerNanos, TimeUnit.MILLISECONDS.toNanos(fallbackMillis)));
        if (!shards.learn(queue, shard, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delay), delay == 0)) {
            return;
        }
        if (delay == 0) {
            request();
            return;
        }
        synchronized (armLock) {
            if (passRunning) {
                request(); // the running pass may have read its shards before this timer existed
            } else if (armed == null || armed.remaining(TimeUnit.MILLISECONDS) > delay) {
                arm(delay);
            }
        }
    }

    /** Returns the node's counts; schedules are counted by the node, the rest by this loop. */
    NodeCounters counters() {
        return counters;
    }

    /** Returns how many deliveries are held (running, not timed out). */
    int inFlight() {
        return inFlight.size();
    }

    /** Returns how many passes have completed (for tests). */
    long passes() {
        return passes.get();
    }

    /** Returns how many timed-out handlers still occupy a thread (for tests). */
    int abandoned() {
        return inFlight.abandoned();
    }

    /**
     * Stops claiming, waits up to {@code drainMillis} for running deliveries to end (their leases
     * are still extended meanwhile), sends their outcomes and stops the thread. The timers of
     * deliveries still running afterwards are released: due again at once, the attempt not counted
     * (if Redis is unreachable then, they come back when their lease runs out).
     *
     * @param drainMillis how long to wait for running deliveries
     */
    void close(long drainMillis) {
        draining = true;
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(drainMillis);
        boolean interrupted = false;
        synchronized (lock) {
            requested = true;
            lock.notifyAll();
            long left;
            // A pass under way may still hand out what it claimed: wait for it too.
            while ((passRunning || inFlight.size() > 0) && (left = deadline - System.nanoTime()) > 0) {
                try {
                    TimeUnit.NANOSECONDS.timedWait(lock, left);
                } catch (InterruptedException e) {
                    interrupted = true;
                    break;
                }
            }
            closed = true;
            lock.notifyAll();
        }
        try {
            thread.join();
        } catch (InterruptedException e) {
            interrupted = true;
        }
        synchronized (armLock) {
            if (armed != null) {
                armed.cancel();
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        while (true) {
            synchronized (lock) {
                while (!requested && !closed) {
                    try {
                        lock.wait();
                    } catch (InterruptedException e) {
                        closed = true;
                    }
                }
                if (closed) {
                    break;
                }
                requested = false;
            }
            pass();
        }
        try {
            sender.flush();
            release(false); // deliveries still running: due again at once, and the other nodes are told
        } catch (RuntimeException e) {
            LOG.log(
                    Level.WARNING,
                    "node " + nodeId + ": outcomes or releases not sent at close; those timers come back"
                            + " when their leases run out: " + e);
        }
    }

    private void pass() {
        passRunning = true;
        try {
            claimPass();
        } finally {
            synchronized (armLock) {
                passRunning = false;
                if (flushAfterPass) {
                    flushAfterPass = false;
                    armWithin(OUTCOME_DELAY_MILLIS);
                }
            }
            synchronized (lock) {
                lock.notifyAll();
            }
        }
    }

    /**
     * A delivery ended (its outcome is queued). Claims again at once when a shard is due and at
     * least half the in-flight slots are free (or none is taken), so claims come in batches, not
     * one per finished delivery; otherwise sends the outcome within {@value #OUTCOME_DELAY_MILLIS}
     * ms, together with those of the deliveries that end meanwhile.
     */
    private void ended() {
        if (draining || (shards.anyDue(System.nanoTime()) && refill())) {
            request();
            return;
        }
        synchronized (armLock) {
            if (passRunning) {
                flushAfterPass = true; // the pass may have sent the outcomes before this one came
            } else {
                armWithin(OUTCOME_DELAY_MILLIS);
            }
        }
    }

    /** Whether enough in-flight slots are free for a claim worth its script. */
    private boolean refill() {
        return inFlight.size() == 0 || inFlight.capacity(maxInFlight) >= Math.max(1, maxInFlight / 2);
    }

    private void claimPass() {
        long delay;
        try {
            OutcomeSender.Batch outcomes;
            if (failures > 0) {
                sender.flush(); // first: a release keeps only the tokens of outcomes not yet sent
                release(true);
                outcomes = sender.take();
            } else {
                outcomes = sender.take(); // sent in the claims' round trip
            }
            delay = claim(outcomes);
            if (failures > 0) {
                LOG.log(Level.INFO, "node " + nodeId + ": Redis is back after " + failures + " failed passes");
            }
            failures = 0;
        } catch (RuntimeException e) {
            failures++;
            LOG.log(
                    failures == 1 ? Level.WARNING : Level.DEBUG,
                    "node " + nodeId + ": claim pass failed (" + failures + " in a row), retrying: " + e);
            delay = Math.min(fallbackMillis, 50L << Math.min(failures, 20));
        }
        passes.incrementAndGet();
        if (delay == 0) {
            request();
        } else if (!draining || inFlight.size() > 0) {
            try {
                synchronized (armLock) {
                    arm(delay < 0 ? fallbackMillis : Math.min(delay, fallbackMillis));
                }
            } catch (RuntimeException e) {
                LOG.log(Level.ERROR, "node " + nodeId + ": cannot arm the wake-up timer: " + e);
            }
        }
    }

    /** Moves the wake-up to {@code delayMillis} from now unless it is sooner; the caller holds armLock. */
    private void armWithin(long delayMillis) {
        try {
            if (armed == null || armed.remaining(TimeUnit.MILLISECONDS) > delayMillis) {
                arm(delayMillis);
            }
        } catch (RuntimeException e) {
            LOG.log(Level.ERROR, "node " + nodeId + ": cannot arm the wake-up timer: " + e);
        }
    }

    /** Sets the wake-up to {@code delayMillis} from now; the caller holds armLock. */
    private void arm(long delayMillis) {
        if (armed == null || !armed.reschedule(delayMillis, TimeUnit.MILLISECONDS)) {
            armed = timer.schedule(this::request, delayMillis, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * After a failed pass: makes due again the timers leased to this node that it does not hold (a
     * claim that ran in Redis but whose reply was lost). Deliveries running and outcomes not yet sent
     * are held; the running ones are read first, as a delivery queues its outcome before it leaves.
     * At close, deliveries still running are released too, and announced on the wake-up channel so
     * that the other nodes claim them at once; after a failure they are not (every node would then
     * claim at once, past its backoff, while Redis is struggling) and this node claims them next.
     */
    private void release(boolean keepRunning) {
        List<InFlight.Running> running = keepRunning ? inFlight.running() : List.of();
        List<InFlight.Outcome> pending = inFlight.pendingOutcomes();
        List<ScriptRunner.Call> calls = new ArrayList<>();
        for (DueShards.Shard shard : shards.all()) {
            ShardKeys s = shard.keys();
            List<byte[]> args = new ArrayList<>();
            args.add(ShardKeys.bytes(nodeId));
            args.add(keepRunning ? NO_ANNOUNCEMENT : channel);
            args.add(s.wakeTopic());
            running.stream()
                    .map(InFlight.Running::delivery)
                    .filter(d -> d.shard() == s)
                    .forEach(d -> args.add(d.token()));
            pending.stream()
                    .map(InFlight.Outcome::delivery)
                    .filter(d -> d.shard() == s)
                    .forEach(d -> args.add(d.token()));
            calls.add(new ScriptRunner.Call(Script.RELEASE, s.keys(), args));
        }
        long released = 0;
        for (Object o : ScriptRunner.runAll(servers, calls, WriteWait.NONE)) {
            released += (Long) o;
        }
        if (released > 0) {
            long n = released;
            LOG.log(
                    Level.INFO,
                    () -> "node " + nodeId + ": released " + n
                            + (keepRunning
                                    ? " claims whose replies were lost"
                                    : " timers of deliveries still running"));
        }
    }

    /**
     * Extends the leases of running deliveries that are due a heartbeat, claims and dispatches due
     * timers; returns the delay to the next pass, or -1 for none known.
     */
    private long claim(OutcomeSender.Batch outcomes) {
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
        int capacity = draining ? 0 : inFlight.capacity(maxInFlight);
        List<DueShards.Shard> due = shards.due(now);
        List<ScriptRunner.Call> calls = new ArrayList<>(outcomes.calls());
        byte[] lease = number(leaseMillis);
        for (InFlight.Running r : beats) {
            Delivery d = r.delivery();
            calls.add(new ScriptRunner.Call(
                    Script.EXTEND, d.shard().keys(), List.of(ShardKeys.bytes(d.id()), d.token(), lease)));
        }
        // Only shards whose time has come, and never more timers than free slots: extra claims would
        // wait for a handler thread while their leases run out. With fewer free slots than due
        // shards, a rotating subset claims one timer each; the others stay due for the next pass.
        int claiming = Math.min(due.size(), capacity);
        int start = due.isEmpty() ? 0 : (int) (passes.get() % due.size());
        List<DueShards.Shard> claimed = new ArrayList<>(claiming);
        for (int i = 0; i < claiming; i++) {
            claimed.add(due.get((start + i) % due.size()));
        }
        byte[] batch = number(claiming == 0 ? 0 : Math.min(batchSize, capacity / claiming));
        for (DueShards.Shard shard : claimed) {
            List<byte[]> args = List.of(batch, lease, number(maxAttempts), ShardKeys.bytes(nodeId));
            calls.add(new ScriptRunner.Call(Script.CLAIM, shard.keys().keys(), args));
        }
        shards.sending(claimed);
        List<Object> results;
        try {
            results = calls.isEmpty() ? List.of() : ScriptRunner.runEach(servers, calls, WriteWait.NONE);
        } catch (RuntimeException e) {
            outcomes.failed();
            throw e;
        }
        RuntimeException outcomeError = outcomes.settle(results);
        int first = outcomes.calls().size(); // the heartbeats' replies, then the claims'
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
        long fallbackNanos = TimeUnit.MILLISECONDS.toNanos(fallbackMillis);
        for (int i = 0; i < claimed.size(); i++) {
            DueShards.Shard shard = claimed.get(i);
            Object result = results.get(first + beats.size() + i);
            if (result instanceof RuntimeException e) {
                // the other shards' claims are already made: dispatch them; retry this one later
                LOG.log(
                        Level.WARNING,
                        "node " + nodeId + ": claim on shard " + shard.keys().shard() + " of queue '"
                                + shard.keys().queue() + "' failed: " + e);
                shards.set(shard, now + fallbackNanos);
                continue;
            }
            ClaimReply r = ClaimReply.read((List<?>) result, shard.keys(), maxAttempts);
            counters.dead(r.deadLettered());
            long delay = r.delayMillis();
            boolean dueNowMissed = delay <= 1 && r.deliveries().isEmpty() && shards.answersDueNowHint(shard);
            shards.set(
                    shard, r.full() ? now : now + untilNextClaim(delay, dueNowMissed ? 0 : lingerNanos, fallbackNanos));
            for (Delivery d : r.deliveries()) {
                if (d.recurring() != null && !d.recurring().runs()) {
                    inFlight.requeue(List.of(new InFlight.Outcome(d, true, 0))); // missed or failed: advance only
                    request();
                    continue;
                }
                counters.fired(r.redisNow() - d.dueTime().toEpochMilli());
                inFlight.dispatch(shard.handler(), d, now);
            }
        }
        if (outcomeError != null) {
            throw outcomeError; // after the claims are dispatched; the outcomes are sent again
        }
        long after = System.nanoTime();
        if (!draining && shards.anyDue(after) && refill()) {
            return 0; // more is due and there is room: claim again at once
        }
        // otherwise the next shard time, heartbeat or fallback; a due shard without enough free
        // slots waits for deliveries to end, which request a pass
        long untilBeat = nextBeat == Long.MAX_VALUE ? Long.MAX_VALUE : nextBeat - after;
        long next = Math.min(shards.next(after, fallbackNanos) - after, untilBeat);
        return Math.max(1, TimeUnit.NANOSECONDS.toMillis(next + 999_999));
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

    private static byte[] number(long n) {
        return ShardKeys.bytes(Long.toString(n));
    }
}
