package dev.hourglass.timer;

import java.util.concurrent.TimeUnit;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.L_Result;

/**
 * Two callers race on a filed timeout: one cancels it, one moves it to now (so both
 * hand it to the driver, which the queued bit must make one hand-off). The cancel always wins in the end: the timeout never runs and the driver's next turn
 * removes it.
 */
@JCStressTest
@Outcome(
        id = "cancel true, reschedule true, cancelled, 0 runs, 0 left, 0 fired, 1 cancelled, 0 pending",
        expect = Expect.ACCEPTABLE,
        desc = "moved, then cancelled")
@Outcome(
        id = "cancel true, reschedule false, cancelled, 0 runs, 0 left, 0 fired, 1 cancelled, 0 pending",
        expect = Expect.ACCEPTABLE,
        desc = "cancelled, so the move was refused")
@Outcome(expect = Expect.FORBIDDEN, desc = "ran, not cancelled, left in the queue, or miscounted")
@State
public class CancelVsRescheduleEarlier {

    private final ManualLoop loop = new ManualLoop();
    private final Timeout timeout = loop.schedule(ManualLoop.DELAY);
    private boolean cancelled;
    private boolean moved;

    /** The timeout is filed before the callers start. */
    public CancelVsRescheduleEarlier() {
        loop.file();
    }

    /** One caller cancels. */
    @Actor
    public void canceller() {
        cancelled = timeout.cancel();
    }

    /** Another moves it to now. */
    @Actor
    public void rescheduler() {
        moved = timeout.reschedule(0, TimeUnit.NANOSECONDS);
    }

    /**
     * The driver's next turn, past every deadline; then the outcome.
     *
     * @param r the outcome
     */
    @Arbiter
    public void outcome(L_Result r) {
        loop.turnMuchLater();
        r.r1 = "cancel " + cancelled + ", reschedule " + moved + ", " + ManualLoop.phase(timeout) + ", " + loop.runs
                + " runs, " + (loop.driver.hasTimers() ? 1 : 0) + " left, " + loop.counts();
    }
}
