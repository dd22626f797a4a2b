package dev.hourglass.timer;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.L_Result;

/**
 * A caller cancels a filed timeout whose task listens for cancels while the timer closes: its
 * driver sees the close and shuts down. Either the cancel wins (it returns true; the timeout is not
 * returned by the close and is counted cancelled once; its task is told, unless the hand-off came
 * after the driver's last look at the intake, when the caller takes it off and counts it) or the
 * close does (the cancel returns false; the close returns the timeout and counts it; nobody is
 * told). Never uncounted or counted twice. One canceller: late hand-offs of several threads at
 * once are not raced here (a third actor needs a third CPU).
 */
@JCStressTest
@Outcome(
        id = "cancel true, cancelled, 0 returned by close, 1 told, 0 fired, 1 cancelled, 0 pending",
        expect = Expect.ACCEPTABLE,
        desc = "the cancel won and the driver took it in")
@Outcome(
        id = "cancel true, cancelled, 0 returned by close, 0 told, 0 fired, 1 cancelled, 0 pending",
        expect = Expect.ACCEPTABLE_INTERESTING,
        desc = "the cancel won, handed over after the driver's last look: counted by the caller")
@Outcome(
        id = "cancel false, cancelled, 1 returned by close, 0 told, 0 fired, 1 cancelled, 0 pending",
        expect = Expect.ACCEPTABLE,
        desc = "the close won")
@Outcome(
        expect = Expect.FORBIDDEN,
        desc = "uncounted or counted twice, told without being counted, returned after a cancel")
@State
public class CancelVsClose {

    private final ManualLoop loop = new ManualLoop();
    private final Listening task = new Listening();
    private final Timeout timeout = loop.driver.schedule(task, ManualLoop.DELAY, TimeUnit.NANOSECONDS);
    private boolean cancelled;

    /** Counts the cancel notices; told on the driver's thread. */
    private static final class Listening implements TimerTask {
        int told;

        @Override
        public void run(Timeout timeout) {}

        @Override
        public void cancelled(Timeout timeout) {
            told++;
        }
    }

    /** The timeout is filed before the race. */
    public CancelVsClose() {
        loop.file();
    }

    /** The timer thread: the close, as its loop sees it, and the shutdown. */
    @Actor
    public void driver() {
        loop.bind();
        loop.driver.beginClose();
        loop.driver.shutdown();
    }

    /** Another thread cancels the timeout. */
    @Actor
    public void caller() {
        cancelled = timeout.cancel();
    }

    /**
     * What became of the timeout, what the close returned and whether the task was told.
     *
     * @param r the outcome
     */
    @Arbiter
    public void outcome(L_Result r) {
        List<Timeout> neverRan = loop.driver.awaitStopped();
        String returned = neverRan.size() + " returned by close";
        if (neverRan.size() == 1 && neverRan.get(0) != timeout) {
            returned = "another returned by close";
        }
        r.r1 = "cancel " + cancelled + ", " + ManualLoop.phase(timeout) + ", " + returned + ", " + task.told + " told, "
                + loop.counts();
    }
}
