package dev.hourglass.timer;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

/** A deliberately broken test: must make the run fail. */
@JCStressTest
@Outcome(id = "2", expect = Expect.ACCEPTABLE, desc = "both increments seen")
@Outcome(id = "1", expect = Expect.FORBIDDEN, desc = "an increment lost")
@State
public class RacyToy {
    final java.util.concurrent.atomic.AtomicInteger x = new java.util.concurrent.atomic.AtomicInteger();

    /** First. */
    @Actor
    public void a() {
        x.incrementAndGet();
    }

    /** Second. */
    @Actor
    public void b() {
        x.incrementAndGet();
    }

    /**
     * The end.
     *
     * @param r result
     */
    @Arbiter
    public void end(I_Result r) {
        r.r1 = x.get();
    }
}
