package dev.hourglass.timer;

import static dev.hourglass.timer.TimeoutNode.MOVED;
import static dev.hourglass.timer.TimeoutNode.PENDING;
import static dev.hourglass.timer.TimeoutNode.PHASE;
import static dev.hourglass.timer.TimeoutNode.QUEUED;
import static dev.hourglass.timer.TimeoutNode.RUNNING;

import dev.hourglass.time.NanoClock;

/**
 * Runs tasks and reports what they throw: a {@link Runnable} or a {@link TimerTask} (handed its
 * timeout), on the driver's thread or on an executor's, where a periodic timeout is handed back to
 * the driver afterwards; the periodic arithmetic (fixed rate from the deadline, fixed delay from
 * the end of the run, unless a reschedule during the run chose the next deadline); and the
 * cancellation notice of a {@link TimerTask}, sent only to one that overrides it.
 *
 * <p>Complexity: O(1) besides the task. Thread-safety: {@link #runOnExecutor} on any thread; the
 * rest on the thread that runs the task.
 */
final class TaskRunner {

    private final NanoClock clock;
    private final Timer.ExceptionHandler exceptionHandler;
    private final Counters counters;

    TaskRunner(NanoClock clock, Timer.ExceptionHandler exceptionHandler, Counters counters) {
        this.clock = clock;
        this.exceptionHandler = exceptionHandler;
        this.counters = counters;
    }

    /** Runs the task of a run due at {@code deadline}, recording its lateness. */
    void run(TimeoutNode node, long deadline) {
        counters.lateness.record(clock.nanoTime() - deadline);
        Object task = node.payload();
        try {
            if (task instanceof TimerTask) {
                ((TimerTask) task).run(node);
            } else {
                ((Runnable) task).run();
            }
        } catch (Throwable e) {
            report(node, e);
        }
    }

    /** Under the node's lock: the deadline after a periodic run, unless a reschedule chose it. */
    long nextRun(TimeoutNode node, int s, long ranFor) {
        if ((s & MOVED) != 0) {
            return node.deadline();
        }
        long period = node.period();
        return period > 0 ? ranFor + period : clock.nanoTime() - period;
    }

    /** Runs on an executor's thread; hands a periodic timeout back to the driver afterwards. */
    void runOnExecutor(TimeoutNode node, long deadline) {
        boolean periodic = node.period() != 0;
        if (periodic) {
            // A cancel before this point stops the run; one after it stops only the runs after.
            int s = node.lock();
            if ((s & PHASE) != RUNNING) {
                if ((s & PHASE) == PENDING) {
                    node.unlock(s);
                }
                return;
            }
            node.unlock(s);
        }
        counters.firedElsewhere();
        run(node, deadline);
        if (!periodic) {
            return;
        }
        boolean direct = node.driver.onDriverThread();
        int s = node.lock();
        if ((s & PHASE) == RUNNING) {
            node.deadline(nextRun(node, s, deadline));
            // Off the driver's thread it goes on the intake, unless it is there already.
            node.unlock(PENDING | (direct ? s & QUEUED : QUEUED));
            if ((s & QUEUED) == 0) {
                node.driver.handOver(node, true);
            }
        }
    }

    /** Tells a {@link TimerTask} that its timeout was cancelled, if it listens. */
    void notifyCancelled(TimeoutNode node) {
        if (node.notifiesCancel()) {
            try {
                ((TimerTask) node.payload()).cancelled(node);
            } catch (Throwable e) {
                report(node, e);
            }
        }
    }

    void report(TimeoutNode node, Throwable error) {
        counters.exception();
        try {
            exceptionHandler.handle(node, error);
        } catch (Throwable handlerError) {
            handlerError.addSuppressed(error);
            handlerError.printStackTrace();
        }
    }
}
