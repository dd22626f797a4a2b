package dev.hourglass.patterns;

import dev.hourglass.timer.Timeout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;

/**
 * One watched key of an {@link IdleDetector}: the time of its latest touch and the one timeout that
 * checks it. A touch only records the time; the timeout, when it fires, either re-arms itself for the
 * silence still missing or decides that the key is idle.
 *
 * <p>The decision and the touches meet in one word, {@link #lastTouch}: a touch moves it forward with
 * a CAS, the decision, a removal or a close replaces it with {@link #DEAD} with a CAS. Whoever moves
 * it to DEAD first owns the end of this watch; a touch that finds DEAD watches the key again with a
 * new instance. So a touch is either seen by the decision or comes after it, never lost in between.
 *
 * <p>Complexity: O(1) per touch (one volatile read and at most one CAS), O(1) per firing.
 *
 * <p>Ordering: the touch times it records only move forward.
 *
 * <p>Thread-safety: safe from any thread; {@link #run()} runs on the timer's thread or executor.
 */
final class IdleWatch<K> implements Runnable {

    /** {@link #lastTouch} once the watch has ended; a clock reading equal to it is moved by 1 ns. */
    static final long DEAD = Long.MIN_VALUE;

    private static final VarHandle LAST_TOUCH;

    static {
        try {
            LAST_TOUCH = MethodHandles.lookup().findVarHandle(IdleWatch.class, "lastTouch", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final K key;
    private final IdleDetector<K> detector;

    /** The clock reading of the latest touch, or {@link #DEAD}. */
    private volatile long lastTouch;

    /** Set once, right after scheduling; the firing waits for it (a few instructions at most). */
    private volatile Timeout timeout;

    IdleWatch(K key, IdleDetector<K> detector, long now) {
        this.key = key;
        this.detector = detector;
        this.lastTouch = now;
    }

    /** Stores the timeout that checks this watch; cancels it if the watch already ended. */
    void armedWith(Timeout scheduled) {
        timeout = scheduled;
        // Read after the write: a kill that read no timeout is seen here, so one of us cancels.
        if (lastTouch == DEAD) {
            scheduled.cancel();
        }
    }

    /**
     * Records a touch at {@code now}; false if the watch has ended and the key must be watched anew.
     */
    boolean touch(long now) {
        for (; ; ) {
            long seen = lastTouch;
            if (seen == DEAD) {
                return false;
            }
            // A touch at the same time or later is already recorded: nothing to write.
            if (now - seen <= 0 || LAST_TOUCH.compareAndSet(this, seen, now)) {
                return true;
            }
        }
    }

    /** Tells whether the watch is still on. */
    boolean isLive() {
        return lastTouch != DEAD;
    }

    /** Ends the watch and cancels its timeout; false if it had already ended. */
    boolean kill() {
        for (; ; ) {
            long seen = lastTouch;
            if (seen == DEAD) {
                return false;
            }
            if (LAST_TOUCH.compareAndSet(this, seen, DEAD)) {
                // Read after the write: if the timeout is not stored yet, armedWith sees DEAD.
                Timeout scheduled = timeout;
                if (scheduled != null) {
                    scheduled.cancel();
                }
                return true;
            }
        }
    }

    /** The firing: re-arm for the silence still missing, or decide that the key is idle. */
    @Override
    public void run() {
        Timeout scheduled = awaitTimeout();
        for (; ; ) {
            long seen = lastTouch;
            if (seen == DEAD) {
                scheduled.cancel();
                return;
            }
            long missing = detector.timeoutNanos - (detector.clock.nanoTime() - seen);
            if (missing > 0) {
                // Lazy: however often the key was touched, one re-arm per timeout period.
                scheduled.reschedule(missing, TimeUnit.NANOSECONDS);
                return;
            }
            // The decision: fails if a touch got in since the read above, then look again.
            if (LAST_TOUCH.compareAndSet(this, seen, DEAD)) {
                scheduled.cancel();
                detector.idle(this);
                return;
            }
        }
    }

    /** The creator stores the timeout right after scheduling it; a firing that early waits for it. */
    private Timeout awaitTimeout() {
        Timeout scheduled;
        for (int spins = 0; (scheduled = timeout) == null; spins++) {
            if (spins < 100) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
        return scheduled;
    }

    @Override
    public String toString() {
        return "IdleWatch[" + key + (isLive() ? "" : ", ended") + "]";
    }
}
