package dev.hourglass.redis;

import dev.hourglass.timer.Timer;
import java.lang.System.Logger.Level;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntToLongFunction;

/**
 * A node's claim loop: one thread that runs passes. A pass is one pipelined round trip ({@link
 * Claimer}): the outcomes of finished deliveries, the lease extensions of running ones and the
 * claims of the shards whose time has come; then the {@link WakeAlarm} is armed at the earliest
 * due time or lease expiry plus the claim linger, or heartbeat, capped by the fallback poll period
 * (a shard's own time, too, so that a lost wake-up message delays a timer by that period at most).
 * A pass also runs when a handler is registered, when the {@link WakeSubscriber} hears of an earlier
 * timer or (re)subscribes (then on every shard), and when a delivery ends while a shard is due and
 * half the in-flight slots are free; the outcome of any other delivery that ends is sent within
 * {@value WakeAlarm#OUTCOME_DELAY_MILLIS} ms, except that an ack whose shard this node is to claim
 * on within that window again waits for that claim, which carries it. Passes requested while one
 * runs coalesce into one.
 *
 * <p>Claims never wait for a full handler pool: a pass claims at most the free slots, and a pass
 * still runs (heartbeats, next due times) when there are none, so expired leases of other nodes are
 * recovered by the nodes with free slots and this node's running deliveries keep their leases.
 *
 * <p>When Redis fails the pass is retried after a backoff growing from 50 ms to the fallback period;
 * outcomes that could not be sent are kept and sent again (acks and nacks are idempotent). A failed
 * claim may still have run in Redis (a stall longer than the socket timeout): the next successful
 * pass releases ({@link LeaseRelease}) the timers leased to this node under tokens it does not hold,
 * so they are due again at once instead of at the end of their lease.
 *
 * <p>Complexity: the {@link Claimer}'s per pass. Ordering: within a shard timers are claimed in due
 * order; deliveries then run concurrently. Thread-safety: {@link #request}, {@link #hint}, {@link
 * #resubscribed}, {@link #register} and {@link #close} may be called from any thread; passes run on
 * the loop's own thread only.
 */
final class ClaimLoop {
    private static final System.Logger LOG = System.getLogger("dev.hourglass.redis");

    private final String nodeId;
    private final long fallbackMillis;
    private final long lingerNanos;
    private final AtomicLong subscriptions = new AtomicLong();
    private final InFlight inFlight;
    private final OutcomeSender sender;
    private final DueShards shards = new DueShards();
    private final Claimer claimer;
    private final LeaseRelease leases;
    private final WakeAlarm alarm;
    private final AtomicLong passes = new AtomicLong();
    private final NodeCounters counters = new NodeCounters();
    private final Thread thread;
    private final Object lock = new Object();
    private volatile boolean draining;
    private boolean requested = true; // guarded by lock; the first pass runs at start
    private boolean closed; // guarded by lock
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
        this.nodeId = nodeId;
        this.fallbackMillis = settings.fallbackMillis();
        this.lingerNanos = TimeUnit.MILLISECONDS.toNanos(settings.lingerMillis());
        this.inFlight = new InFlight(
                handlers.executor(),
                timer,
                nodeId,
                handlers.timeoutMillis(),
                handlers.threads(),
                handlers.backoffMillis(),
                this::ended);
        this.sender = new OutcomeSender(servers, inFlight, shards, counters, nodeId, settings.maxAttempts());
        this.claimer =
                new Claimer(servers, inFlight, shards, counters, this::request, () -> draining, nodeId, settings);
        this.leases = new LeaseRelease(servers, inFlight, shards, nodeId, channel);
        this.alarm = new WakeAlarm(timer, this::request, nodeId);
        this.thread = new Thread(this::run, "hourglass-redis-" + nodeId);
        this.thread.setDaemon(true);
    }

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
                : TimeUnit.NANOSECONDS.toMillis(Claimer.untilNextClaim(
                        delayMillis, lingerNanos, TimeUnit.MILLISECONDS.toNanos(fallbackMillis)));
        if (!shards.learn(queue, shard, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delay), delay == 0)) {
            return;
        }
        if (delay == 0) {
            request();
        } else {
            alarm.hinted(delay);
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
            while ((alarm.passRunning() || inFlight.size() > 0) && (left = deadline - System.nanoTime()) > 0) {
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
        alarm.cancel();
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
            leases.release(false); // deliveries still running: due again at once, and the other nodes are told
        } catch (RuntimeException e) {
            LOG.log(
                    Level.WARNING,
                    "node " + nodeId + ": outcomes or releases not sent at close; those timers come back"
                            + " when their leases run out: " + e);
        }
    }

    private void pass() {
        alarm.passStarted();
        try {
            claimPass();
        } finally {
            alarm.passEnded();
            synchronized (lock) {
                lock.notifyAll();
            }
        }
    }

    /**
     * A delivery ended (its outcome is queued). Claims again at once when a shard is due and at
     * least half the in-flight slots are free (or none is taken), so claims come in batches, not
     * one per finished delivery; otherwise a pass runs within {@value
     * WakeAlarm#OUTCOME_DELAY_MILLIS} ms to send the outcome with those of the deliveries that end
     * meanwhile (or to hold an ack for a claim on its shard, as the class says).
     */
    private void ended() {
        if (draining || (shards.anyDue(System.nanoTime()) && claimer.refill())) {
            request();
        } else {
            alarm.outcomeQueued();
        }
    }

    private void claimPass() {
        long delay;
        try {
            OutcomeSender.Batch outcomes;
            if (failures > 0) {
                sender.flush(); // first: a release keeps only the tokens of outcomes not yet sent
                leases.release(true);
                outcomes = sender.take();
            } else {
                outcomes = sender.take(); // sent in the claims' round trip
            }
            delay = claimer.claim(outcomes, passes.get());
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
            alarm.armAfterPass(Math.min(delay, fallbackMillis));
        }
    }
}
