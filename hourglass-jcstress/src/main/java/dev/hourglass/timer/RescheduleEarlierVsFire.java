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
 * A caller moves a timeout to now while the driver fires it (an earlier move hands
 * the timeout to the driver again, unless it waits in the intake already): it runs exactly once,
 * within the driver's turns, and nothing is left behind.
 */
@JCStressTest
@Outcome(id = "1 runs then 1, reschedule true, 0 left", expect = Expect.ACCEPTABLE, desc = "moved, then fired")
@Outcome(id = "1 runs then 1, reschedule false, 0 left", expect = Expect.ACCEPTABLE, desc = "fired before the move")
@Outcome(expect = Expect.FORBIDDEN, desc = "ran twice, never, late, or left in the queue")
@State
public class RescheduleEarlierVsFire {

    private final ManualLoop loop = new ManualLoop();
    private final Timeout timeout = loop.schedule(ManualLoop.DELAY);
    private boolean moved;

    /** The timeout is filed and due when the actors start. */
    public RescheduleEarlierVsFire() {
        loop.fileAndMakeDue();
    }

    /** The timer thread's turn fires it. */
    @Actor
    public void driver() {
        loop.driver.turn();
    }

    /** Another thread moves it to now. */
    @Actor
    public void caller() {
        moved = timeout.reschedule(0, TimeUnit.NANOSECONDS);
    }

    /**
     * The runs so far, then those after a later turn, which also takes in any hand-off left.
     *
     * @param r the outcome
     */
    @Arbiter
    public void outcome(L_Result r) {
        int before = loop.runs;
        loop.turnMuchLater();
        r.r1 = before + " runs then " + loop.runs + ", reschedule " + moved + ", " + (loop.driver.hasTimers() ? 1 : 0)
                + " left";
    }
}
