package dev.hourglass.patterns;

import dev.hourglass.timer.Timeout;
import dev.hourglass.timer.Timer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Keeps one timeout of an {@link ExpiringMap} armed on its timer at or before the earliest time a
 * sweep has work: one timeout per map, whatever the number of entries.
 *
 * <p>The protocol that loses no deadline: a writer checks {@link #armFor} with its stripe's lock
 * held, before it links the entry; a sweep calls {@link #sweepStarted} (which forgets the armed
 * time, so that every later writer arms for itself) before it takes any stripe's lock, and arms for
 * what it found when it is done. A writer that checks before a sweep started is seen by that sweep,
 * which takes the writer's stripe lock after the writer; a writer that checks after sees nothing
 * armed and arms.
 *
 * <p>Complexity: O(1); {@link #armFor} is two volatile reads unless its deadline is earlier than
 * the armed time. Ordering: not applicable.
 *
 * <p>Thread-safety: every method may be called from any thread.
 */
final class SweepArming {

    private final Timer timer;
    private final Runnable sweep;
    private final ReentrantLock lock = new ReentrantLock();

    /** Under the lock: the pending sweep's timeout, or null. */
    private Timeout timeout;

    /** True while a sweep is pending at {@link #armedAt}; written under the lock. */
    private volatile boolean armed;

    private volatile long armedAt;

    SweepArming(Timer timer, Runnable sweep) {
        this.timer = timer;
        this.sweep = sweep;
    }

    /**
     * Makes sure a sweep runs at {@code at} or earlier; {@code now} is the clock's reading.
     *
     * @throws IllegalStateException if the timer is closed
     * @throws java.util.concurrent.RejectedExecutionException if the timer's pending limit is reached
     */
    void armFor(long at, long now) {
        // A closed timer cancelled the armed timeout: arm() reports it, so a put fails cleanly.
        if (!armed || at - armedAt < 0 || timer.isClosed()) {
            arm(at, now);
        }
    }

    /** Called by a sweep as it starts: forgets the timeout that is running it. */
    void sweepStarted() {
        lock.lock();
        try {
            timeout = null;
            armed = false;
        } finally {
            lock.unlock();
        }
    }

    /** Cancels the pending sweep, if any. */
    void disarm() {
        lock.lock();
        try {
            if (timeout != null) {
                timeout.cancel();
                timeout = null;
            }
            armed = false;
        } finally {
            lock.unlock();
        }
    }

    private void arm(long at, long now) {
        lock.lock();
        try {
            if (timeout != null && timeout.isCancelled()) {
                // Cancelled by the timer's close: scheduling again reports that to the caller.
                timeout = null;
                armed = false;
            }
            long delay = Math.max(0, at - now);
            if (timeout == null) {
                timeout = timer.schedule(sweep, delay, TimeUnit.NANOSECONDS);
                armedAt = at;
                armed = true;
            } else if (at - armedAt < 0 && timeout.reschedule(delay, TimeUnit.NANOSECONDS)) {
                armedAt = at;
            }
        } finally {
            lock.unlock();
        }
    }
}
