package dev.hourglass.redis;

import dev.hourglass.timer.Timeout;
import dev.hourglass.timer.Timer;
import java.lang.System.Logger.Level;
import java.util.concurrent.TimeUnit;

/**
 * When a {@link ClaimLoop} passes next without being asked: one timeout on the node's local
 * {@link Timer} that requests a pass, armed after each pass and moved earlier by wake-up hints and
 * by finished deliveries; and whether a pass runs, so that what comes during one is not lost (the
 * pass may have read its shards or sent its outcomes before it came).
 *
 * <p>Complexity: O(1) per call plus the timer's cost. Ordering: n/a. Thread-safety: safe from any
 * thread.
 */
final class WakeAlarm {
    private static final System.Logger LOG = System.getLogger("dev.hourglass.redis");

    /** How long the outcome of a delivery may wait to be sent with others, in ms. */
    static final long OUTCOME_DELAY_MILLIS = 10;

    private final Timer timer;
    private final Runnable requestPass;
    private final String nodeId;
    private final Object lock = new Object();
    private volatile boolean passRunning;
    private Timeout armed; // guarded by lock
    private boolean flushAfterPass; // guarded by lock: an outcome came while a pass ran

    /**
     * Creates the alarm of one node.
     *
     * @param timer the local timer that runs the wake-ups
     * @param requestPass asks the loop for a pass
     * @param nodeId the node, for the log
     */
    WakeAlarm(Timer timer, Runnable requestPass, String nodeId) {
        this.timer = timer;
        this.requestPass = requestPass;
        this.nodeId = nodeId;
    }

    /** A pass begins, on the loop's thread. */
    void passStarted() {
        passRunning = true;
    }

    /** Tells whether a pass runs. */
    boolean passRunning() {
        return passRunning;
    }

    /** The pass ended: an outcome queued while it ran is sent within {@value #OUTCOME_DELAY_MILLIS} ms. */
    void passEnded() {
        synchronized (lock) {
            passRunning = false;
            if (flushAfterPass) {
                flushAfterPass = false;
                armWithin(OUTCOME_DELAY_MILLIS);
            }
        }
    }

    /**
     * A timer is due in {@code delayMillis}: wakes the loop by then. While a pass runs, requests
     * another instead, as the running one may have read its shards before the timer existed.
     *
     * @param delayMillis the time until the shard is to be claimed on, ms
     * @throws IllegalStateException if the timer is closed
     * @throws java.util.concurrent.RejectedExecutionException if the timer's pending limit is reached
     */
    void hinted(long delayMillis) {
        synchronized (lock) {
            if (passRunning) {
                requestPass.run();
            } else if (armed == null || armed.remaining(TimeUnit.MILLISECONDS) > delayMillis) {
                arm(delayMillis);
            }
        }
    }

    /**
     * A delivery's outcome was queued: a pass runs within {@value #OUTCOME_DELAY_MILLIS} ms to send
     * it with those of the deliveries that end meanwhile (after the running pass if one runs); that
     * pass may hold an ack back as long again for a claim on its shard ({@link Claimer}).
     */
    void outcomeQueued() {
        synchronized (lock) {
            if (passRunning) {
                flushAfterPass = true;
            } else {
                armWithin(OUTCOME_DELAY_MILLIS);
            }
        }
    }

    /**
     * Sets the next pass to {@code delayMillis} from now; a failure to arm is logged.
     *
     * @param delayMillis the delay, ms
     */
    void armAfterPass(long delayMillis) {
        try {
            synchronized (lock) {
                arm(delayMillis);
            }
        } catch (RuntimeException e) {
            LOG.log(Level.ERROR, "node " + nodeId + ": cannot arm the wake-up timer: " + e);
        }
    }

    /** Cancels the wake-up, at close. */
    void cancel() {
        synchronized (lock) {
            if (armed != null) {
                armed.cancel();
            }
        }
    }

    /** Moves the wake-up to {@code delayMillis} from now unless it is sooner; the caller holds the lock. */
    private void armWithin(long delayMillis) {
        try {
            if (armed == null || armed.remaining(TimeUnit.MILLISECONDS) > delayMillis) {
                arm(delayMillis);
            }
        } catch (RuntimeException e) {
            LOG.log(Level.ERROR, "node " + nodeId + ": cannot arm the wake-up timer: " + e);
        }
    }

    /** Sets the wake-up to {@code delayMillis} from now; the caller holds the lock. */
    private void arm(long delayMillis) {
        if (armed == null || !armed.reschedule(delayMillis, TimeUnit.MILLISECONDS)) {
            armed = timer.schedule(requestPass, delayMillis, TimeUnit.MILLISECONDS);
        }
    }
}
