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
 * <p>Lateness on the driver's thread: reading the clock costs about as much as firing a timeout,
 * so the tasks of one turn share readings, in groups. A turn's first group is one task; a group
 * whose tasks took less than {@link #FAST_TASK_NANOS} each on average is followed by one twice as
 * large, up to {@link #MAX_GROUP}; any slower group is followed by a group of one. A task's
 * lateness is the reading taken as its group began minus its deadline: never more than its true
 * lateness, and less only by the run time of the tasks before it in its group (at most {@code
 * MAX_GROUP - 1} of them, of one turn). On an executor's threads each task reads the clock.
 *
 * <p>Complexity: O(1) besides the task. Thread-safety: {@link #runOnExecutor} on any thread; the
 * rest on the thread that runs the task.
 */
final class TaskRunner {

    /** The most tasks of a turn that share one clock reading for their lateness. */
    static final int MAX_GROUP = 32;

    /** The average run time per task under which the next group doubles. */
    static final long FAST_TASK_NANOS = 1_000;

    private final NanoClock clock;
    private final Timer.ExceptionHandler exceptionHandler;
    private final Counters counters;

    /** The reading taken as the current group began; driver's thread only, like the fields below. */
    private long groupStart;

    /** The current group's size, 0 when no group is open (before a turn's first task). */
    private int groupSize;

    /** How many more tasks the current group takes. */
    private int groupLeft;

    TaskRunner(NanoClock clock, Timer.ExceptionHandler exceptionHandler, Counters counters) {
        this.clock = clock;
        this.exceptionHandler = exceptionHandler;
        this.counters = counters;
    }

    /**
     * Runs, on the driver's thread, the task of a run due at {@code deadline}, recording its
     * lateness from its group's reading. Only the driver's thread records into the histogram when
     * it runs tasks itself (a timer with an executor runs none here).
     */
    void run(TimeoutNode node, long deadline) {
        counters.lateness.recordAlone(groupStart() - deadline);
        call(node);
    }

    /** The reading of the group the next task joins; opens a group when the last one is full. */
    private long groupStart() {
        if (groupLeft > 0) {
            groupLeft--;
            return groupStart;
        }
        long now = clock.nanoTime();
        if (groupSize == 0) {
            groupSize = 1;
        } else if (now - groupStart < groupSize * FAST_TASK_NANOS) {
            groupSize = Math.min(2 * groupSize, MAX_GROUP);
        } else {
            groupSize = 1;
        }
        groupStart = now;
        groupLeft = groupSize - 1;
        return now;
    }

    /** Ends the turn's grouping: the next turn's first task reads the clock. */
    void endTurn() {
        groupSize = 0;
        groupLeft = 0;
    }

    private void call(TimeoutNode node) {
        try {
            node.runTask();
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
        counters.lateness.record(clock.nanoTime() - deadline);
        call(node);
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
                // Urgent: after a late or long run the next deadline may be near or past already.
                node.driver.handOver(node, true, true);
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
