package dev.hourglass.redis;

import dev.hourglass.timer.Timeout;
import dev.hourglass.timer.Timer;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntToLongFunction;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;

/**
 * A node's claim loop: one thread that, on each pass, first sends the outcomes of finished
 * deliveries (acks and nacks, pipelined), then claims due timers from every shard of every queue
 * with a handler (one pipelined round trip, one claim script per shard), hands them to the handler
 * executor and arms a local {@link Timer} timeout at the earliest due time or lease expiry the
 * shards reported, capped by the fallback poll period. A pass also runs when a delivery finishes,
 * when a handler is registered, and when the {@link WakeSubscriber} hears of an earlier timer.
 * Passes requested while one runs coalesce into one.
 *
 * <p>An idle node therefore makes one pipelined round trip per fallback period. At most {@code
 * maxInFlight} deliveries are held at once, so leases do not run out while deliveries wait for a
 * handler thread (provided the executor runs that many at once).
 *
 * <p>When Redis fails the pass is retried after a backoff growing from 50 ms to the fallback period;
 * outcomes that could not be sent are kept and sent again (acks and nacks are idempotent), and
 * claimed timers whose outcome is lost come back when their lease runs out: nothing is lost.
 *
 * <p>Complexity: per pass O(shards) scripts plus O(log n) per timer claimed or acknowledged.
 * Ordering: within a shard timers are claimed in due order; deliveries then run concurrently.
 * Thread-safety: {@link #request}, {@link #hint}, {@link #register} and {@link #close} may be called
 * from any thread; passes run on the loop's own thread only.
 */
final class ClaimLoop {
    private static final System.Logger LOG = System.getLogger("dev.hourglass.redis");

    /** A queue's shards and its handler. */
    private record Registration(ShardKeys[] shards, TimerHandler handler) {}

    /** How a delivery ended: acknowledged, or failed with the backoff to wait before the retry. */
    private record Outcome(Delivery delivery, boolean ok, long backoffMillis) {}

    private final JedisPool pool;
    private final Timer timer;
    private final Executor executor;
    private final String nodeId;
    private final int batchSize;
    private final long leaseMillis;
    private final int maxAttempts;
    private final IntToLongFunction backoffMillis;
    private final long fallbackMillis;
    private final int maxInFlight;
    private final Map<String, Registration> registrations = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<Outcome> outcomes = new ConcurrentLinkedQueue<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicLong passes = new AtomicLong();
    private final Thread thread;
    private final Object lock = new Object();
    private final Object armLock = new Object();
    private volatile boolean draining;
    private volatile boolean passRunning;
    private boolean requested = true; // guarded by lock; the first pass runs at start
    private boolean closed; // guarded by lock
    private Timeout armed; // guarded by armLock
    private int failures; // loop thread only

    ClaimLoop(
            JedisPool pool,
            Timer timer,
            Executor executor,
            String nodeId,
            int batchSize,
            long leaseMillis,
            int maxAttempts,
            IntToLongFunction backoffMillis,
            long fallbackMillis,
            int maxInFlight) {
        this.pool = pool;
        this.timer = timer;
        this.executor = executor;
        this.nodeId = nodeId;
        this.batchSize = batchSize;
        this.leaseMillis = leaseMillis;
        this.maxAttempts = maxAttempts;
        this.backoffMillis = backoffMillis;
        this.fallbackMillis = fallbackMillis;
        this.maxInFlight = maxInFlight;
        this.thread = new Thread(this::run, "hourglass-redis-" + nodeId);
        this.thread.setDaemon(true);
    }

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
        boolean added = registrations.putIfAbsent(queue, new Registration(shards, handler)) == null;
        request();
        return added;
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
     * @param delayMillis the time until it is due, by Redis's clock
     */
    void hint(String queue, long delayMillis) {
        if (!registrations.containsKey(queue)) {
            return;
        }
        if (delayMillis <= 0) {
            request();
            return;
        }
        synchronized (armLock) {
            if (passRunning) {
                request(); // the running pass may have read its shards before this timer existed
            } else if (armed == null || armed.remaining(TimeUnit.MILLISECONDS) > delayMillis) {
                arm(delayMillis);
            }
        }
    }

    /** Returns how many passes have completed (for tests). */
    long passes() {
        return passes.get();
    }

    /**
     * Stops claiming, waits up to {@code drainMillis} for running deliveries to finish, sends their
     * outcomes and stops the thread. Deliveries still running afterwards come back when their lease
     * runs out.
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
            while ((passRunning || inFlight.get() > 0) && (left = deadline - System.nanoTime()) > 0) {
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
        try (Jedis jedis = pool.getResource()) {
            flush(jedis);
        } catch (RuntimeException e) {
            LOG.log(
                    Level.WARNING,
                    "node " + nodeId + ": outcomes not sent at close; those timers come back"
                            + " when their leases run out: " + e);
        }
    }

    private void pass() {
        passRunning = true;
        try {
            claimPass();
        } finally {
            synchronized (lock) {
                passRunning = false;
                lock.notifyAll();
            }
        }
    }

    private void claimPass() {
        long delay;
        try (Jedis jedis = pool.getResource()) {
            flush(jedis);
            delay = draining ? -1 : claim(jedis);
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
        } else if (!draining) {
            try {
                synchronized (armLock) {
                    arm(delay < 0 ? fallbackMillis : Math.min(delay, fallbackMillis));
                }
            } catch (RuntimeException e) {
                LOG.log(Level.ERROR, "node " + nodeId + ": cannot arm the wake-up timer: " + e);
            }
        }
    }

    /** Sets the wake-up to {@code delayMillis} from now; the caller holds armLock. */
    private void arm(long delayMillis) {
        if (armed == null || !armed.reschedule(delayMillis, TimeUnit.MILLISECONDS)) {
            armed = timer.schedule(this::request, delayMillis, TimeUnit.MILLISECONDS);
        }
    }

    private void flush(Jedis jedis) {
        List<Outcome> sent = new ArrayList<>();
        for (Outcome o; (o = outcomes.poll()) != null; ) {
            sent.add(o);
        }
        if (sent.isEmpty()) {
            return;
        }
        List<ScriptRunner.Call> calls = new ArrayList<>(sent.size());
        for (Outcome o : sent) {
            Delivery d = o.delivery();
            byte[] id = ShardKeys.bytes(d.id());
            calls.add(
                    o.ok()
                            ? new ScriptRunner.Call(Script.ACK, d.shard().keys(), List.of(id, d.token()))
                            : new ScriptRunner.Call(
                                    Script.NACK,
                                    d.shard().keys(),
                                    List.of(id, d.token(), number(o.backoffMillis()), number(maxAttempts))));
        }
        List<Object> results;
        try {
            results = ScriptRunner.runAll(jedis, calls, WriteWait.NONE);
        } catch (RuntimeException e) {
            outcomes.addAll(sent);
            throw e;
        }
        for (int i = 0; i < results.size(); i++) {
            long result = (Long) results.get(i);
            Delivery d = sent.get(i).delivery();
            if (result == 0) {
                LOG.log(
                        Level.DEBUG,
                        () -> "node " + nodeId + ": outcome of " + d + " ignored: rescheduled,"
                                + " cancelled or claimed again meanwhile");
            } else if (result == 2) {
                LOG.log(Level.WARNING, "node " + nodeId + ": " + d + " failed its last attempt; dead-lettered");
            }
        }
    }

    /** Claims and dispatches due timers; returns the delay to the next pass, or -1 for none known. */
    private long claim(Jedis jedis) {
        int capacity = maxInFlight - inFlight.get();
        List<ShardKeys> shards = new ArrayList<>();
        List<TimerHandler> handlers = new ArrayList<>();
        for (Registration r : registrations.values()) {
            for (ShardKeys s : r.shards()) {
                shards.add(s);
                handlers.add(r.handler());
            }
        }
        if (capacity <= 0 || shards.isEmpty()) {
            return -1; // a finishing delivery requests the next pass
        }
        // Never claim more than capacity: extra claims would wait for a handler thread while their
        // leases run out. With fewer free slots than shards, a rotating subset of the shards claims
        // one timer each and the others are only asked for their next time (batch 0).
        int claiming = Math.min(shards.size(), capacity);
        int start = (int) (passes.get() % shards.size());
        byte[] batch = number(Math.min(batchSize, capacity / claiming));
        byte[] peek = number(0);
        List<ScriptRunner.Call> calls = new ArrayList<>(shards.size());
        for (int i = 0; i < shards.size(); i++) {
            boolean claims = Math.floorMod(i - start, shards.size()) < claiming;
            List<byte[]> args =
                    List.of(claims ? batch : peek, number(leaseMillis), number(maxAttempts), ShardKeys.bytes(nodeId));
            calls.add(new ScriptRunner.Call(Script.CLAIM, shards.get(i).keys(), args));
        }
        List<Object> results = ScriptRunner.runEach(jedis, calls, WriteWait.NONE);
        long next = -1;
        for (int i = 0; i < results.size(); i++) {
            if (results.get(i) instanceof RuntimeException e) {
                // the other shards' claims are already made: dispatch them; retry this one later
                LOG.log(
                        Level.WARNING,
                        "node " + nodeId + ": claim on shard " + shards.get(i).shard() + " of queue '"
                                + shards.get(i).queue() + "' failed: " + e);
                next = next < 0 ? fallbackMillis : Math.min(next, fallbackMillis);
                continue;
            }
            List<?> r = (List<?>) results.get(i);
            long delay = (Long) r.get(1);
            if ((Long) r.get(2) == 1) {
                delay = 0;
            }
            if (delay >= 0 && (next < 0 || delay < next)) {
                next = delay;
            }
            for (int j = 3; j < r.size(); j += 5) {
                Delivery d = new Delivery(
                        shards.get(i),
                        new String((byte[]) r.get(j), StandardCharsets.UTF_8),
                        r.get(j + 1) == null ? new byte[0] : (byte[]) r.get(j + 1),
                        Instant.ofEpochMilli((Long) r.get(j + 2)),
                        ((Long) r.get(j + 3)).intValue(),
                        (byte[]) r.get(j + 4));
                dispatch(handlers.get(i), d);
            }
        }
        return next;
    }

    private void dispatch(TimerHandler handler, Delivery d) {
        inFlight.incrementAndGet();
        try {
            executor.execute(() -> handle(handler, d));
        } catch (RejectedExecutionException e) {
            inFlight.decrementAndGet();
            LOG.log(
                    Level.WARNING,
                    "node " + nodeId + ": executor rejected " + d + "; it comes back when its" + " lease runs out: "
                            + e);
        }
    }

    private void handle(TimerHandler handler, Delivery d) {
        boolean ok = false;
        try {
            handler.handle(d);
            ok = true;
        } catch (Exception e) {
            LOG.log(Level.WARNING, "node " + nodeId + ": handler failed for " + d + ": " + e);
        } finally {
            outcomes.add(new Outcome(d, ok, ok ? 0 : backoffMillis.applyAsLong(d.attempt())));
            inFlight.decrementAndGet();
            request();
        }
    }

    private static byte[] number(long n) {
        return ShardKeys.bytes(Long.toString(n));
    }
}
