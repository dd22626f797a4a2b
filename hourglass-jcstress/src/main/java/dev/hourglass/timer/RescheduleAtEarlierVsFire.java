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
 * A caller moves a filed timeout to a deadline it gives, a clock reading of now, while the driver
 * runs a turn ({@code rescheduleAt}: an earlier move reads the clock after the lock is released to
 * tell how soon the driver must know, then hands the timeout over): it runs in that turn if the
 * hand-off came first, else in the next one, long before its old deadline; exactly once, and
 * nothing is left behind.
 */
@JCStressTest
@Outcome(
        id = "1 runs, then 1 before the old deadline, 1 in the end, 0 left, 1 fired, 0 cancelled, 0 pending",
        expect = Expect.ACCEPTABLE,
        desc = "handed over before the turn took the intake")
@Outcome(
        id = "0 runs, then 1 before the old deadline, 1 in the end, 0 left, 1 fired, 0 cancelled, 0 pending",
        expect = Expect.ACCEPTABLE,
        desc = "handed over after it")
@Outcome(expect = Expect.FORBIDDEN, desc = "ran twice, never, at the old deadline, left in the queue, or miscounted")
@State
public class RescheduleAtEarlierVsFire {

    private final ManualLoop loop = new ManualLoop();
    private final Timeout timeout = loop.schedule(ManualLoop.DELAY);
    private boolean moved;

    /** The timeout is filed, not due, when the actors start. */
    public RescheduleAtEarlierVsFire() {
        loop.file();
    }

    /** The timer thread runs a turn. */
    @Actor
    public void driver() {
        loop.driver.turn();
    }

    /** Another thread moves it to a reading of the clock it takes: now. */
    @Actor
    public void caller() {
        moved = timeout.rescheduleAt(loop.clock.nanoTime());
    }

    /**
     * The runs so far, after a turn one tick later (before the old deadline), and after a turn
     * much later.
     *
     * @param r the outcome
     */
    @Arbiter
    public void outcome(L_Result r) {
        int first = loop.runs;
        loop.clock.advance(TimeUnit.MILLISECONDS.toNanos(1));
        loop.driver.turn();
        int second = loop.runs;
        loop.turnMuchLater();
        r.r1 = moved
                ? first + " runs, then " + second + " before the old deadline, " + loop.runs + " in the end, "
                        + (loop.driver.hasTimers() ? 1 : 0) + " left, " + loop.counts()
                : "reschedule refused";
    }
}
