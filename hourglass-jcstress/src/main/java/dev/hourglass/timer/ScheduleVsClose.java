package dev.hourglass.timer;

import java.util.List;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.L_Result;

/**
 * A caller schedules a due timeout while the timer closes: its driver runs a turn, sees the close
 * and shuts down. The schedule either throws, or returns a timeout that ran before the close, or
 * one that never runs, ends cancelled and is among those the close returns: never lost.
 */
@JCStressTest
@Outcome(
        id = "rejected, 0 runs, 0 returned by close, 0 fired, 0 cancelled, 0 pending",
        expect = Expect.ACCEPTABLE,
        desc = "refused: the timer was closed")
@Outcome(
        id = "rejected, 0 runs, 0 returned by close, 0 fired, 1 cancelled, 0 pending",
        expect = Expect.ACCEPTABLE,
        desc = "handed over after the driver's last look, so cancelled and refused")
@Outcome(
        id = "scheduled, 1 runs, expired, 0 returned by close, 1 fired, 0 cancelled, 0 pending",
        expect = Expect.ACCEPTABLE,
        desc = "ran in the turn before the close")
@Outcome(
        id = "scheduled, 0 runs, cancelled, 1 returned by close, 0 fired, 1 cancelled, 0 pending",
        expect = Expect.ACCEPTABLE,
        desc = "cancelled by the close and returned")
@Outcome(expect = Expect.FORBIDDEN, desc = "lost, run after the close, returned and run, or miscounted")
@State
public class ScheduleVsClose {

    private final ManualLoop loop = new ManualLoop();
    private Timeout timeout;
    private boolean rejected;

    /** The timer thread: one turn, then the close, as its loop sees it, and the shutdown. */
    @Actor
    public void driver() {
        loop.bind();
        loop.driver.turn();
        loop.driver.beginClose();
        loop.driver.shutdown();
    }

    /** Another thread schedules a timeout due now. */
    @Actor
    public void caller() {
        try {
            timeout = loop.schedule(0);
        } catch (IllegalStateException closed) {
            rejected = true;
        }
    }

    /**
     * What became of the timeout, and what the close returned.
     *
     * @param r the outcome
     */
    @Arbiter
    public void outcome(L_Result r) {
        List<Timeout> neverRan = loop.driver.awaitStopped();
        String what = rejected
                ? "rejected"
                : timeout == null ? "lost" : "scheduled, " + loop.runs + " runs, " + ManualLoop.phase(timeout);
        String returned = neverRan.size() + " returned by close";
        if (neverRan.size() == 1 && neverRan.get(0) != timeout) {
            returned = "another returned by close";
        }
        r.r1 = (rejected ? what + ", " + loop.runs + " runs, " + returned : what + ", " + returned) + ", "
                + loop.counts();
    }
}
