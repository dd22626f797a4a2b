package dev.hourglass.timer;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.L_Result;

/**
 * The loop is about to nap with a message that can wait on the intake, while another thread hands
 * over one that cannot (due before the nap ends): either the loop turns again or that thread wakes
 * it. Napping unwoken would leave the urgent timeout on the intake past its deadline.
 */
@JCStressTest
@Outcome(id = "turns again, not woken", expect = Expect.ACCEPTABLE, desc = "the loop saw the urgent message")
@Outcome(id = "turns again, woken", expect = Expect.ACCEPTABLE, desc = "both saw each other")
@Outcome(id = "sleeps, woken", expect = Expect.ACCEPTABLE, desc = "the caller saw the loop asleep")
@Outcome(id = "sleeps, not woken", expect = Expect.FORBIDDEN, desc = "the urgent timeout waits for the nap")
@State
public class NapVsUrgent {

    /** Less than a nap: urgent. */
    private static final long SOON = TimerDriver.NAP_NANOS / 10;

    private final AtomicInteger wakes = new AtomicInteger();
    /** A clock that stands still yet says it flows, as naps need one. */
    private final TimerDriver driver = Timers.builder().clock(() -> 0L).buildDriver(wakes::incrementAndGet);

    private boolean slept;

    /** A filed timeout, so the loop has a deadline, and a far one left waiting on the intake. */
    public NapVsUrgent() {
        driver.schedule(() -> {}, 10, TimeUnit.SECONDS);
        driver.turn();
        driver.schedule(() -> {}, 20, TimeUnit.SECONDS);
    }

    /** The loop, after its turn: sleeps until the end of the nap unless told otherwise. */
    @Actor
    public void loop() {
        slept = driver.prepareToSleep(false, driver.nextDeadline());
    }

    /** Another thread schedules a timeout due before the nap ends. */
    @Actor
    public void caller() {
        driver.schedule(() -> {}, SOON, TimeUnit.NANOSECONDS);
    }

    /**
     * What the loop did and whether it was woken.
     *
     * @param r the outcome
     */
    @Arbiter
    public void outcome(L_Result r) {
        r.r1 = (slept ? "sleeps" : "turns again") + (wakes.get() > 0 ? ", woken" : ", not woken");
    }
}
