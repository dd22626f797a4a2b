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
 * A caller cancels a fixed-rate task while the timer runs it and files its next run: the series
 * stops for good (no run after the cancel, however far the clock jumps), the cancel succeeds, and
 * no timeout or counted task is left behind.
 */
@JCStressTest
@Outcome(
        id = "cancel true, cancelled, 0 runs, 0 pending, 0 held, terminated",
        expect = Expect.ACCEPTABLE,
        desc = "cancelled before its first run")
@Outcome(
        id = "cancel true, cancelled, 1 runs, 0 pending, 0 held, terminated",
        expect = Expect.ACCEPTABLE,
        desc = "cancelled during or after its first run")
@Outcome(expect = Expect.FORBIDDEN, desc = "ran after the cancel, a timeout left on the timer, or the task still held")
@State
public class CancelVsPeriodicRun {

    private final ManualExecutor manual = new ManualExecutor();
    private final Future<?> future = manual.executor.scheduleAtFixedRate(
            manual.task, ManualExecutor.DELAY, ManualExecutor.DELAY, TimeUnit.NANOSECONDS);
    private boolean cancelled;

    /** The first run is filed and due when the actors start. */
    public CancelVsPeriodicRun() {
        manual.fileAndMakeDue();
    }

    /** The timer's turn runs it and files the next run. */
    @Actor
    public void driver() {
        manual.driver.turn();
    }

    /** Another thread cancels the series. */
    @Actor
    public void caller() {
        cancelled = future.cancel(false);
    }

    /**
     * The outcome, after the clock jumped past the next runs.
     *
     * @param r the outcome
     */
    @Arbiter
    public void outcome(L_Result r) {
        r.r1 = "cancel " + cancelled + ", " + (future.isCancelled() ? "cancelled" : "not cancelled") + ", "
                + manual.afterwards();
    }
}
