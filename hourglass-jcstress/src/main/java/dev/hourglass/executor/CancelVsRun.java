package dev.hourglass.executor;

import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.L_Result;

/**
 * A caller cancels a one-shot task while the timer runs it: it runs at most once; a cancel that
 * comes first stops it, one that comes during the run still succeeds (as the JDK's {@code
 * FutureTask} lets it: the result is dropped); either way the executor counts the task out once.
 */
@JCStressTest
@Outcome(
        id = "cancel false, done, 1 runs, 0 pending, 0 held, terminated",
        expect = Expect.ACCEPTABLE,
        desc = "ran to the end before the cancel")
@Outcome(
        id = "cancel true, cancelled, 0 runs, 0 pending, 0 held, terminated",
        expect = Expect.ACCEPTABLE,
        desc = "cancelled before it ran")
@Outcome(
        id = "cancel true, cancelled, 1 runs, 0 pending, 0 held, terminated",
        expect = Expect.ACCEPTABLE,
        desc = "cancelled while it ran, as FutureTask allows")
@Outcome(expect = Expect.FORBIDDEN, desc = "ran twice, a failed cancel of a task that never ran, or counted wrong")
@State
public class CancelVsRun {

    private final ManualExecutor manual = new ManualExecutor();
    private final Future<?> future = manual.executor.schedule(manual.task, ManualExecutor.DELAY, TimeUnit.NANOSECONDS);
    private boolean cancelled;

    /** The task is filed and due when the actors start. */
    public CancelVsRun() {
        manual.fileAndMakeDue();
    }

    /** The timer's turn runs the task. */
    @Actor
    public void driver() {
        manual.driver.turn();
    }

    /** Another thread cancels it. */
    @Actor
    public void caller() {
        cancelled = future.cancel(false);
    }

    /**
     * The outcome.
     *
     * @param r the outcome
     */
    @Arbiter
    public void outcome(L_Result r) {
        String state = future.isCancelled() ? "cancelled" : future.isDone() ? "done" : "not done";
        r.r1 = "cancel " + cancelled + ", " + state + ", " + manual.afterwards();
    }
}
