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
 * A caller moves a timeout later while the driver fires it (a later move sends the
 * driver nothing: the driver finds the new deadline when it meets the timeout). Either it fired
 * and the reschedule returned false, or it did not fire at the old deadline and fires once later.
 */
@JCStressTest
@Outcome(
        id = "1 runs then 1, reschedule false, 1 fired, 0 cancelled, 0 pending",
        expect = Expect.ACCEPTABLE,
        desc = "fired; the reschedule came late")
@Outcome(
        id = "0 runs then 1, reschedule true, 1 fired, 0 cancelled, 0 pending",
        expect = Expect.ACCEPTABLE,
        desc = "moved, then fired at the new deadline")
@Outcome(expect = Expect.FORBIDDEN, desc = "fired at the old deadline after a reschedule, twice, never, or miscounted")
@State
public class RescheduleVsFire {

    private final ManualLoop loop = new ManualLoop();
    private final Timeout timeout = loop.schedule(ManualLoop.DELAY);
    private boolean moved;

    /** The timeout is filed and due when the actors start. */
    public RescheduleVsFire() {
        loop.fileAndMakeDue();
    }

    /** The timer thread's turn fires it. */
    @Actor
    public void driver() {
        loop.driver.turn();
    }

    /** Another thread moves it later. */
    @Actor
    public void caller() {
        moved = timeout.reschedule(2 * ManualLoop.DELAY, TimeUnit.NANOSECONDS);
    }

    /**
     * The runs so far, then those after a turn past the new deadline.
     *
     * @param r the outcome
     */
    @Arbiter
    public void outcome(L_Result r) {
        int before = loop.runs;
        loop.turnMuchLater();
        r.r1 = before + " runs then " + loop.runs + ", reschedule " + moved + ", " + loop.counts();
    }
}
