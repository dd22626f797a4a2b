package dev.hourglass.timer;

import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * A driver's closing, in three steps: closed (schedules are refused and nothing starts any more),
 * terminated (the loop is about to take its last look at the intake: a timeout pushed from then
 * on is cancelled by its own hand-off, see {@link LastLook}), stopped (the timeouts that never ran
 * are known, and waiting callers return them).
 *
 * <p>Complexity: O(1). Thread-safety: safe from any thread.
 */
final class Stopping {

    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile boolean closed;
    private volatile boolean terminated;
    private List<Timeout> neverRan;

    boolean isClosed() {
        return closed;
    }

    boolean isTerminated() {
        return terminated;
    }

    /** Closes; returns false if it was closed already. */
    synchronized boolean close() {
        if (closed) {
            return false;
        }
        closed = true;
        return true;
    }

    void terminate() {
        terminated = true;
    }

    synchronized void stopped(List<Timeout> left) {
        neverRan = List.copyOf(left);
        stopped.countDown();
    }

    /**
     * Waits until stopped and returns what never ran. An interrupt is remembered and restored
     * rather than obeyed: stopping does not give up half-way.
     */
    List<Timeout> await() {
        boolean interrupted = false;
        while (true) {
            try {
                stopped.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            return neverRan == null ? List.of() : neverRan;
        }
    }
}
