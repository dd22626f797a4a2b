package dev.hourglass.timer;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.L_Result;

/**
 * A caller cancels a timeout while the driver fires it: exactly one of "the task
 * ran" and "cancel returned true"; afterwards the driver holds nothing and counted it once.
 */
@JCStressTest
@Outcome(
        id = "1 runs, cancel false, expired, 0 left, 1 fired, 0 cancelled, 0 pending",
        expect = Expect.ACCEPTABLE,
        desc = "fired; the cancel came late")
@Outcome(
        id = "0 runs, cancel true, cancelled, 0 left, 0 fired, 1 cancelled, 0 pending",
        expect = Expect.ACCEPTABLE,
        desc = "cancelled before it fired")
@Outcome(expect = Expect.FORBIDDEN, desc = "ran and cancelled, neither, left in the queue, or miscounted")
@State
public class CancelVsFire {

    private final ManualLoop loop = new ManualLoop();
    private final Timeout timeout = loop.schedule(ManualLoop.DELAY);
    private boolean cancelled;

    /** The timeout is filed and due when the actors start. */
    public CancelVsFire() {
        loop.fileAndMakeDue();
    }

    /** The timer thread's turn fires it. */
    @Actor
    public void driver() {
        loop.driver.turn();
    }

    /** Another thread cancels. */
    @Actor
    public void caller() {
        cancelled = timeout.cancel();
    }

    /**
     * The driver's next turn takes in the cancel; then the outcome.
     *
     * @param r the outcome
     */
    @Arbiter
    public void outcome(L_Result r) {
        loop.driver.turn();
        r.r1 = loop.runs + " runs, cancel " + cancelled + ", " + ManualLoop.phase(timeout) + ", "
                + (loop.driver.hasTimers() ? 1 : 0) + " left, " + loop.counts();
    }
}
