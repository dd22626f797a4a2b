package dev.hourglass.redis;

import dev.hourglass.timer.Timeout;
import dev.hourglass.timer.Timer;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntToLongFunction;

/**
 * The deliveries a node holds: runs each handler on the executor under a timeout and collects the
 * outcomes for the claim loop to send. The timeout runs from the handler's start; before that it
 * bounds the wait for a thread, so a delivery stuck behind hung handlers fails too. A handler that
 * runs past its timeout is interrupted and its attempt counts as failed at once (retried after the
 * backoff, or dead-lettered): its slot is freed, and whatever it returns later is ignored. Its
 * thread may still be stuck; with the node's own pool (which holds as many spare threads as handler
 * threads) such threads are counted and shrink what the node takes, to nothing when every thread is
 * stuck.
 *
 * <p>Deliveries beyond the handler threads wait in the executor's queue, so that a claim takes a
 * batch of timers, not one per free thread. How many may wait follows the handlers' mean duration:
 * with the node's own pool at most what the threads get through in a quarter of the timeout, so that
 * with slow handlers a node does not hoard timers that other nodes could run.
 *
 * <p>Complexity: O(1) per delivery; O(deliveries held) per heartbeat scan. Ordering: outcomes are
 * queued in the order deliveries end. Thread-safety: every method may be called from any thread.
 */
final class InFlight {
    private static final System.Logger LOG = System.getLogger("dev.hourglass.redis");

    /** How a delivery ended: acknowledged, or failed with the backoff to wait before the retry. */
    record Outcome(Delivery delivery, boolean ok, long backoffMillis) {}

    /** One delivery being handled. */
    static final class Running {
        private static final int RUNNING = 0;
        private static final int DONE = 1;
        private static final int TIMED_OUT = 2;

        private final Delivery delivery;
        private final AtomicInteger state = new AtomicInteger(RUNNING);
        private Thread thread; // guarded by this; the thread running the handler
        private Timeout timeout; // guarded by this
        private volatile long extendedAtNanos;
        private volatile boolean leaseLost;

        private Running(Delivery delivery, long claimedAtNanos) {
            this.delivery = delivery;
            this.extendedAtNanos = claimedAtNanos;
        }

        Delivery delivery() {
            return delivery;
        }

        long extendedAtNanos() {
            return extendedAtNanos;
        }

        /** Records a heartbeat: extended at that time, or the lease was lost to a newer attempt. */
        void extended(boolean held, long atNanos) {
            if (held) {
                extendedAtNanos = atNanos;
            } else {
                leaseLost = true;
            }
        }

        boolean leaseLost() {
            return leaseLost;
        }
    }

    private final Executor executor;
    private final Timer timer;
    private final String nodeId;
    private final long timeoutMillis;
    private final int threads;
    private final IntToLongFunction backoffMillis;
    private final Runnable ended;
    private final Set<Running> live = ConcurrentHashMap.newKeySet();
    private final AtomicInteger abandoned = new AtomicInteger();
    private final ConcurrentLinkedQueue<Outcome> outcomes = new ConcurrentLinkedQueue<>();
    private volatile long meanNanos; // the handlers' mean duration, moving average; 0 before the first

    /**
     * Creates the set.
     *
     * @param executor runs the handlers
     * @param timer arms the handler timeouts
     * @param nodeId for log lines
     * @param timeoutMillis how long a handler may run
     * @param threads the executor's threads (handler threads and as many spares), or 0 if unknown (a
     *     caller's executor)
     * @param backoffMillis the retry backoff by attempt
     * @param ended called after each outcome is queued
     */
    InFlight(
            Executor executor,
            Timer timer,
            String nodeId,
            long timeoutMillis,
            int threads,
            IntToLongFunction backoffMillis,
            Runnable ended) {
        this.executor = executor;
        this.timer = timer;
        this.nodeId = nodeId;
        this.timeoutMillis = timeoutMillis;
        this.threads = threads;
        this.backoffMillis = backoffMillis;
        this.ended = ended;
    }

    /**
     * Returns how many more deliveries may be taken: below {@code maxInFlight}; with the node's own
     * pool also below what its threads get through in a quarter of the timeout at the handlers' mean
     * duration, and shrunk by the threads held by timed-out handlers; never negative.
     */
    int capacity(int maxInFlight) {
        long allowed = maxInFlight;
        if (threads > 0) {
            int workers = Math.min(threads / 2, threads - abandoned.get());
            if (workers <= 0) {
                return 0;
            }
            allowed = Math.max(1, (long) maxInFlight * workers / (threads / 2));
            long mean = meanNanos;
            if (mean > 0) {
                allowed = Math.min(allowed, workers * (1 + TimeUnit.MILLISECONDS.toNanos(timeoutMillis) / 4 / mean));
            }
        }
        return (int) Math.max(0, allowed - live.size());
    }

    /** Returns how many deliveries are held (running, not timed out). */
    int size() {
        return live.size();
    }

    /** Returns how many timed-out handlers still occupy a thread. */
    int abandoned() {
        return abandoned.get();
    }

    /** Returns the held deliveries (a snapshot). */
    List<Running> running() {
        return new ArrayList<>(live);
    }

    /** Takes the queued outcomes. */
    List<Outcome> drainOutcomes() {
        List<Outcome> out = new ArrayList<>();
        for (Outcome o; (o = outcomes.poll()) != null; ) {
            out.add(o);
        }
        return out;
    }

    /** Puts back outcomes that could not be sent. */
    void requeue(Collection<Outcome> unsent) {
        outcomes.addAll(unsent);
    }

    /** Returns the outcomes waiting to be sent (a snapshot; they stay queued). */
    List<Outcome> pendingOutcomes() {
        return new ArrayList<>(outcomes);
    }

    /**
     * Runs a delivery's handler on the executor under the timeout.
     *
     * @param handler the queue's handler
     * @param d the delivery
     * @param claimedAtNanos when the claim that took it was sent ({@link System#nanoTime()})
     */
    void dispatch(TimerHandler handler, Delivery d, long claimedAtNanos) {
        Running r = new Running(d, claimedAtNanos);
        live.add(r);
        synchronized (r) {
            r.timeout = timer.schedule(() -> timedOut(r), timeoutMillis, TimeUnit.MILLISECONDS);
        }
        try {
            executor.execute(() -> run(handler, r));
        } catch (RejectedExecutionException e) {
            if (r.state.compareAndSet(Running.RUNNING, Running.DONE)) {
                cancelTimeout(r);
                live.remove(r);
            }
            LOG.log(
                    Level.WARNING,
                    "node " + nodeId + ": executor rejected " + d + "; it comes back when its lease runs out: " + e);
        }
    }

    private void run(TimerHandler handler, Running r) {
        synchronized (r) {
            if (r.state.get() != Running.RUNNING) {
                abandoned.decrementAndGet(); // timed out before it started
                return;
            }
            r.thread = Thread.currentThread();
            r.timeout.reschedule(timeoutMillis, TimeUnit.MILLISECONDS); // until now it bounded the wait
        }
        long start = System.nanoTime();
        boolean ok = false;
        try {
            handler.handle(r.delivery);
            ok = true;
        } catch (Exception e) {
            LOG.log(Level.WARNING, "node " + nodeId + ": handler failed for " + r.delivery + ": " + e);
        } finally {
            synchronized (r) {
                r.thread = null;
            }
            Thread.interrupted(); // a timeout's interrupt that came too late must not leak into the pool
            long took = System.nanoTime() - start;
            long mean = meanNanos;
            meanNanos = mean == 0 ? Math.max(1, took) : Math.max(1, mean + (took - mean) / 16); // racy: an estimate
            if (r.state.compareAndSet(Running.RUNNING, Running.DONE)) {
                cancelTimeout(r);
                end(r, ok);
            } else {
                abandoned.decrementAndGet();
            }
        }
    }

    private void timedOut(Running r) {
        if (!r.state.compareAndSet(Running.RUNNING, Running.TIMED_OUT)) {
            return;
        }
        abandoned.incrementAndGet();
        synchronized (r) {
            if (r.thread != null) {
                r.thread.interrupt();
            }
        }
        LOG.log(
                Level.WARNING,
                "node " + nodeId + ": handler of " + r.delivery + " timed out after " + timeoutMillis
                        + " ms; the attempt counts as failed (its thread was interrupted)");
        end(r, false);
    }

    private void end(Running r, boolean ok) {
        outcomes.add(new Outcome(r.delivery, ok, ok ? 0 : backoffMillis.applyAsLong(r.delivery.attempt())));
        live.remove(r);
        ended.run();
    }

    private static void cancelTimeout(Running r) {
        Timeout t;
        synchronized (r) {
            t = r.timeout;
        }
        if (t != null) {
            t.cancel();
        }
    }
}
