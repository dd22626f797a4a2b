package dev.hourglass.timer;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.L_Result;

/**
 * Two threads push two nodes each onto the intake at once; the driver then takes everything:
 * nothing lost or duplicated, each producer's nodes in the order it pushed them, and exactly one
 * push found the intake empty (the one that may have to wake the driver).
 */
@JCStressTest
@Outcome(id = "a1 a2 b1 b2, 1 found it empty", expect = Expect.ACCEPTABLE, desc = "a first")
@Outcome(id = "a1 b1 a2 b2, 1 found it empty", expect = Expect.ACCEPTABLE, desc = "interleaved")
@Outcome(id = "a1 b1 b2 a2, 1 found it empty", expect = Expect.ACCEPTABLE, desc = "interleaved")
@Outcome(id = "b1 a1 a2 b2, 1 found it empty", expect = Expect.ACCEPTABLE, desc = "interleaved")
@Outcome(id = "b1 a1 b2 a2, 1 found it empty", expect = Expect.ACCEPTABLE, desc = "interleaved")
@Outcome(id = "b1 b2 a1 a2, 1 found it empty", expect = Expect.ACCEPTABLE, desc = "b first")
@Outcome(expect = Expect.FORBIDDEN, desc = "lost, duplicated or reordered")
@State
public class IntakeTwoProducers {

    private final Intake intake = new Intake();
    private final TimeoutNode a1 = IntakeNodes.node("a1");
    private final TimeoutNode a2 = IntakeNodes.node("a2");
    private final TimeoutNode b1 = IntakeNodes.node("b1");
    private final TimeoutNode b2 = IntakeNodes.node("b2");
    private int foundEmptyByA;
    private int foundEmptyByB;

    /** One producer. */
    @Actor
    public void producerA() {
        foundEmptyByA = (intake.push(a1) ? 1 : 0) + (intake.push(a2) ? 1 : 0);
    }

    /** Another producer. */
    @Actor
    public void producerB() {
        foundEmptyByB = (intake.push(b1) ? 1 : 0) + (intake.push(b2) ? 1 : 0);
    }

    /**
     * The driver takes everything.
     *
     * @param r the outcome
     */
    @Arbiter
    public void outcome(L_Result r) {
        r.r1 = IntakeNodes.names(intake.takeAll()) + ", " + (foundEmptyByA + foundEmptyByB) + " found it empty";
    }
}
