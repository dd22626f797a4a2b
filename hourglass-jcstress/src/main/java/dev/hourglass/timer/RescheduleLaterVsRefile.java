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
 * A caller moves a timeout later while the driver files it again after an earlier move (the
 * earlier move went through the intake; the later one sends nothing). Whatever the interleaving,
 * the later deadline holds: the timeout does not run at the earlier one. Re-filing once wrote back
 * the deadline it had read, undoing a later move that landed in between (seen as a timeout run
 * 186 µs early in the four-producer stress test).
 */
@JCStressTest
@Outcome(
        id = "0 runs at the earlier deadline, then 1, reschedule true, 1 fired, 0 cancelled, 0 pending",
        expect = Expect.ACCEPTABLE,
        desc = "the later move held")
@Outcome(
        expect = Expect.FORBIDDEN,
        desc = "ran at the earlier deadline after the later move, twice, never, or miscounted")
@State
public class RescheduleLaterVsRefile {

    private static final long EARLIER = 2 * ManualLoop.DELAY;
    private static final long LATER = 6 * ManualLoop.DELAY;

    private final ManualLoop loop = new ManualLoop();
    private final Timeout timeout = loop.schedule(4 * ManualLoop.DELAY);
    private boolean moved;

    /** The timeout is filed, then moved earlier: the move waits on the intake for the driver. */
    public RescheduleLaterVsRefile() {
        loop.file();
        if (!timeout.reschedule(EARLIER, TimeUnit.NANOSECONDS)) {
            throw new IllegalStateException("the earlier move was refused");
        }
    }

    /** The timer thread's turn takes the earlier move in and files the timeout again. */
    @Actor
    public void driver() {
        loop.driver.turn();
    }

    /** Another thread moves it later. */
    @Actor
    public void caller() {
        moved = timeout.reschedule(LATER, TimeUnit.NANOSECONDS);
    }

    /**
     * The runs after a turn at the earlier deadline, then those after a turn past the later one.
     *
     * @param r the outcome
     */
    @Arbiter
    public void outcome(L_Result r) {
        loop.clock.advance(EARLIER);
        loop.driver.turn();
        int atEarlier = loop.runs;
        loop.turnMuchLater();
        r.r1 = atEarlier + " runs at the earlier deadline, then " + loop.runs + ", reschedule " + moved + ", "
                + loop.counts();
    }
}
