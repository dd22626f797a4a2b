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
 * A timeout waits on the intake (moved earlier, not yet due) while the driver takes it in and a
 * caller cancels it. A take that finds the node still pending clears the queued bit before it
 * applies the node, so the cancel may push it again; one that finds it cancelled already leaves the
 * bit: the driver must count the cancellation once, not once per hand-off.
 */
@JCStressTest
@Outcome(
        id = "cancel true, cancelled, 0 runs, 0 left, 0 fired, 1 cancelled, 0 pending",
        expect = Expect.ACCEPTABLE,
        desc = "cancelled and counted once")
@Outcome(expect = Expect.FORBIDDEN, desc = "ran, left in the queue, or counted twice")
@State
public class CancelVsTakeIn {

    private final ManualLoop loop = new ManualLoop();
    private final Timeout timeout = loop.schedule(ManualLoop.DELAY);
    private boolean cancelled;

    /** The timeout is filed, then moved earlier (still not due), which puts it on the intake. */
    public CancelVsTakeIn() {
        loop.file();
        timeout.reschedule(ManualLoop.DELAY / 2, TimeUnit.NANOSECONDS);
    }

    /** The driver's turn takes the intake in. */
    @Actor
    public void driver() {
        loop.driver.turn();
    }

    /** A caller cancels. */
    @Actor
    public void canceller() {
        cancelled = timeout.cancel();
    }

    /**
     * The driver's next turn, past every deadline; then the outcome.
     *
     * @param r the outcome
     */
    @Arbiter
    public void outcome(L_Result r) {
        loop.turnMuchLater();
        r.r1 = "cancel " + cancelled + ", " + ManualLoop.phase(timeout) + ", " + loop.runs + " runs, "
                + (loop.driver.hasTimers() ? 1 : 0) + " left, " + loop.counts();
    }
}
