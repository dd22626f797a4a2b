package dev.hourglass.timer;

import static dev.hourglass.timer.TimeoutNode.CANCELLED;
import static dev.hourglass.timer.TimeoutNode.CLOSED;
import static dev.hourglass.timer.TimeoutNode.DUE;
import static dev.hourglass.timer.TimeoutNode.EXPIRED;
import static dev.hourglass.timer.TimeoutNode.LOCKED;
import static dev.hourglass.timer.TimeoutNode.PENDING;
import static dev.hourglass.timer.TimeoutNode.PHASE;
import static dev.hourglass.timer.TimeoutNode.QUEUED;
import static dev.hourglass.timer.TimeoutNode.RUNNING;

import dev.hourglass.time.NanoClock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * The driver's own side: the queue, the firing of due timeouts and their re-arming, the list of
 * timeouts due now, and the counts; a {@link TaskRunner} runs the tasks (here or on an executor)
 * and does the periodic arithmetic. Owned by one thread, the driver's.
 *
 * <p>A timeout is filed at or before its deadline; one delivered early (moved later by another
 * thread, or held at a bounded wheel's edge) is filed again instead of run. A timeout due when it
 * arrives is not filed: it waits in a list of due timeouts that runs at the end of the turn, so a
 * zero delay runs at the next turn even between a wheel's ticks.
 *
 * <p>Complexity: the structure's per timeout. Ordering: due timeouts run in the structure's order,
 * then those that arrived due, in arrival order.
 *
 * <p>Thread-safety: the driver's thread only, except the counters' readers and {@link #closing}.
 */
final class Engine {

    private final NanoClock clock;
    private final Filing filing;
    private final Executor executor;
    final Counters counters = new Counters();
    private final TaskRunner runner;
    private final ArrayDeque<TimeoutNode> due = new ArrayDeque<>();
    private final Consumer<TimeoutNode> fire = this::fire;

    /** Set by any thread when closing begins: from then on nothing starts. */
    volatile boolean closing;

    /** The time of the turn being run. */
    private long now;

    /** Timeouts that came due after closing began, cancelled instead of run. */
    private List<Timeout> leftovers;

    Engine(NanoClock clock, Filing filing, Executor executor, Timer.ExceptionHandler exceptionHandler) {
        this.clock = clock;
        this.filing = filing;
        this.executor = executor;
        this.runner = new TaskRunner(clock, exceptionHandler, counters);
        this.now = filing.queue().time();
    }

    /**
     * Runs one turn: fires what is due, takes in what other threads handed over (taken before the
     * clock is read, so a zero delay among them is due now), then runs what arrived due. The turn's
     * tasks share clock readings for their lateness (see {@link TaskRunner}).
     */
    void turn(TimeoutNode batch) {
        long target = clock.nanoTime();
        // Times are compared by subtraction, which wraps for a jump of more than Long.MAX_VALUE
        // (a manual clock can make one): catch up in steps no longer than the longest delay, so
        // that every pending deadline lies within one step and comes due on the way.
        while (Long.compareUnsigned(target - now, Timer.MAX_DELAY_NANOS) > 0) {
            now += Timer.MAX_DELAY_NANOS;
            filing.poll(now, fire);
        }
        now = target;
        filing.poll(now, fire);
        takeIn(batch);
        if (!due.isEmpty()) {
            // A task fired above may have scheduled a zero delay on this thread, due at a later
            // reading than the turn's: read again, so that it runs now instead of being filed.
            now = clock.nanoTime();
        }
        runDue();
        runner.endTurn();
    }

    /** The clock reading of the last turn. */
    long time() {
        return now;
    }

    boolean hasTimers() {
        return !due.isEmpty() || !filing.queue().isEmpty();
    }

    /** When to run next: now if timeouts wait in the due list; at or before the next deadline. */
    long nextDeadline() {
        return due.isEmpty() ? filing.nextWork() : now;
    }

    /** Applies the nodes taken from the intake, oldest first. */
    private void takeIn(TimeoutNode batch) {
        for (TimeoutNode node = batch; node != null; ) {
            TimeoutNode next = Intake.next(node);
            int s = node.state();
            if (TimeoutNode.isFinal(s)) {
                // No thread pushes a cancelled or expired node again, so its queued bit may stay:
                // no read-modify-write for the driver on a cancel.
                if ((s & (PHASE | CLOSED)) == CANCELLED) {
                    cancelled(node);
                }
            } else {
                // Cleared after the link: from here on another thread may push the node again.
                node.update(0, QUEUED);
                apply(node);
            }
            node = next;
        }
    }

    /** Makes the queue agree with what the timeout now wants. */
    void apply(TimeoutNode node) {
        int s = node.state();
        int phase = s & PHASE;
        if (phase == CANCELLED) {
            // QUEUED: a cancel pushed it again after the take cleared the bit; it is handled when
            // the intake brings it back, so it is counted and its task told once.
            if ((s & (CLOSED | QUEUED)) == 0) {
                cancelled(node);
            }
        } else if (phase == PENDING && (s & DUE) == 0) {
            // A timeout in the due list is looked at when the list runs.
            if (node.deadline() - now <= 0) {
                filing.unfile(node);
                markDue(node);
            } else if (filing.isFiled(node)) {
                filing.refile(node);
            } else {
                filing.file(node);
            }
        }
        // RUNNING: the end of the run re-arms it; EXPIRED: nothing left to do.
    }

    /** Takes a cancel in: out of the queue, counted once, its task told. */
    private void cancelled(TimeoutNode node) {
        filing.unfile(node);
        counters.cancelled();
        runner.notifyCancelled(node);
    }

    /** Puts a new timeout made on the driver's thread with no delay in the list of due timeouts. */
    void dueNow(TimeoutNode node) {
        markDue(node);
    }

    private void markDue(TimeoutNode node) {
        node.update(DUE, 0);
        due.add(node);
    }

    /** Runs the timeouts due so far this turn; those they make due wait for the next turn. */
    private void runDue() {
        for (int n = due.size(); n > 0; n--) {
            TimeoutNode node = due.poll();
            node.update(0, DUE);
            fire(node);
        }
    }

    /** One timeout whose place came due. */
    private void fire(TimeoutNode node) {
        int s = node.lock();
        int phase = s & PHASE;
        if (phase != PENDING) {
            // Cancelled: the intake brings it to apply(). Running: cannot be filed; let it go.
            if (phase == RUNNING) {
                node.unlock(s);
            }
            return;
        }
        if (closing) {
            // Closing has begun: nothing starts; stop() returns it with the rest.
            node.unlock(CANCELLED | CLOSED | (s & QUEUED));
            counters.cancelled();
            if (leftovers == null) {
                leftovers = new ArrayList<>();
            }
            leftovers.add(node);
            return;
        }
        long deadline = node.deadline();
        if (deadline - now > 0) {
            // Moved later without a message, or held early by a bounded wheel: file, don't run.
            node.unlock(s);
            if (filing.queue().horizon() - now <= 0) {
                // A bounded wheel catching up after a long pause could only move it a range at a
                // time, each step due again in this poll: file it after the poll, from now.
                markDue(node);
            } else {
                filing.file(node);
            }
            return;
        }
        boolean periodic = node.period() != 0;
        node.unlock((periodic ? RUNNING : EXPIRED) | (s & QUEUED));
        if (!periodic) {
            counters.expired();
        }
        if (executor == null) {
            counters.fired();
            runner.run(node, deadline);
            rearm(node, deadline);
            return;
        }
        try {
            executor.execute(() -> runner.runOnExecutor(node, deadline));
        } catch (Throwable e) {
            // Rejected, a broken executor, or no thread to be had: report it and keep the driver
            // alive; a periodic timeout tries its next run.
            runner.report(node, e);
            rearm(node, deadline);
        }
    }

    /** Ends a periodic run on the driver's thread: sets the next deadline and files it again. */
    private void rearm(TimeoutNode node, long ranFor) {
        if (node.period() == 0) {
            return;
        }
        int s = node.lock();
        if ((s & PHASE) != RUNNING) {
            if ((s & PHASE) == PENDING) {
                node.unlock(s);
            }
            return;
        }
        node.deadline(runner.nextRun(node, s, ranFor));
        node.unlock(PENDING | (s & QUEUED));
        if ((s & QUEUED) == 0) {
            apply(node);
        }
    }

    /**
     * Stops: takes in the last batch, then cancels every timeout still waiting and returns them
     * with those that came due after closing began.
     */
    List<Timeout> shutdown(TimeoutNode batch) {
        closing = true;
        takeIn(batch);
        List<Timeout> left = leftovers == null ? new ArrayList<>() : leftovers;
        leftovers = null;
        for (TimeoutNode node = due.poll(); node != null; node = due.poll()) {
            cancelForClose(node, left, false);
        }
        filing.clear(node -> cancelForClose(node, left, false));
        return left;
    }

    /**
     * Takes in a node found in the stopping driver's last look at the intake: cancels it for the
     * close if it is still pending (into {@code left}), or counts a user's cancel that won before
     * the close reached the timeout but was handed over after the driver's first look.
     *
     * @return true if it counted a user's cancel, whose task the driver then tells ({@link
     *     #tellCancelled})
     */
    boolean takeInLast(TimeoutNode node, List<Timeout> left) {
        return !cancelForClose(node, left, true) && countLateCancel(node);
    }

    /** Tells a listening task of its cancel; the driver's thread, for a cancel it counted. */
    void tellCancelled(TimeoutNode node) {
        runner.notifyCancelled(node);
    }

    /**
     * Counts a user's cancel of a node that no regular take will ever see: taken in by the
     * stopping driver's last look, or off the intake by a thread that hands over after that look.
     * Any thread; each node is taken off the intake once, so counted once.
     *
     * @return true if the node was cancelled by a user, and so counted
     */
    boolean countLateCancel(TimeoutNode node) {
        if ((node.state() & (PHASE | CLOSED)) != CANCELLED) {
            return false;
        }
        counters.cancelledLate();
        return true;
    }

    /** Cancels a timeout because the timer closes; adds it to {@code left} if this did it. */
    boolean cancelForClose(TimeoutNode node, List<Timeout> left, boolean late) {
        for (int spins = 0; ; spins++) {
            int s = node.state();
            if ((s & LOCKED) != 0) {
                Thread.onSpinWait();
            } else if (TimeoutNode.isFinal(s)) {
                return false;
            } else if (node.casState(s, CANCELLED | CLOSED | (s & QUEUED))) {
                if (late) {
                    counters.cancelledLate();
                } else {
                    counters.cancelled();
                }
                if (left != null) {
                    left.add(node);
                }
                return true;
            }
        }
    }

    @Override
    public String toString() {
        return "Engine[" + filing.queue() + ", due=" + due.size() + "]";
    }
}
