package dev.hourglass.timer;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.L_Result;

/**
 * A thread pushes three nodes while the driver takes the intake (possibly between a producer's
 * exchange and its link); the driver takes the rest later. Across both takes: every node once, in
 * the order pushed.
 */
@JCStressTest
@Outcome(id = "/ a1 a2 a3", expect = Expect.ACCEPTABLE, desc = "took nothing, then all")
@Outcome(id = "a1 / a2 a3", expect = Expect.ACCEPTABLE, desc = "took the first")
@Outcome(id = "a1 a2 / a3", expect = Expect.ACCEPTABLE, desc = "took two")
@Outcome(id = "a1 a2 a3 /", expect = Expect.ACCEPTABLE, desc = "took all")
@Outcome(expect = Expect.FORBIDDEN, desc = "lost, duplicated or reordered")
@State
public class IntakeProducerVsTaker {

    private final Intake intake = new Intake();
    private final TimeoutNode a1 = IntakeNodes.node("a1");
    private final TimeoutNode a2 = IntakeNodes.node("a2");
    private final TimeoutNode a3 = IntakeNodes.node("a3");
    private String taken;

    /** A caller pushes. */
    @Actor
    public void producer() {
        intake.push(a1);
        intake.push(a2);
        intake.push(a3);
    }

    /** The driver takes what is there. */
    @Actor
    public void taker() {
        taken = IntakeNodes.names(intake.takeAll());
    }

    /**
     * The driver's next take; then both.
     *
     * @param r the outcome
     */
    @Arbiter
    public void outcome(L_Result r) {
        String rest = IntakeNodes.names(intake.takeAll());
        r.r1 = (taken + " / " + rest).trim();
    }
}
