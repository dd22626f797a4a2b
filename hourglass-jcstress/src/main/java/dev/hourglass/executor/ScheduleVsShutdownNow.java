package dev.hourglass.executor;

import java.util.List;
import java.util.concurrent.Future;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.L_Result;

/**
 * A caller schedules a task an hour away while another thread calls shutdownNow: the task is either
 * refused or in the list shutdownNow returns, never lost; no timeout of it is left on the timer (its
 * arming, when it comes after the drain, cancels the timeout it gets) and the executor terminates.
 */
@JCStressTest
@Outcome(
        id = "refused, 0 returned, 0 runs, 0 pending, 0 held, terminated",
        expect = Expect.ACCEPTABLE,
        desc = "the shutdown came first")
@Outcome(
        id = "accepted, returned it, 0 runs, 0 pending, 0 held, terminated",
        expect = Expect.ACCEPTABLE,
        desc = "admitted first, then returned as never run")
@Outcome(
        expect = Expect.FORBIDDEN,
        desc = "lost, returned though refused, a timeout left on the timer, or a task still held")
@State
public class ScheduleVsShutdownNow {

    private final ManualExecutor manual = new ManualExecutor();
    private Future<?> future;
    private List<Runnable> returned;

    /** Schedules a task an hour away, or is refused. */
    @Actor
    public void caller() {
        future = manual.scheduleInAnHourOrNull();
    }

    /** Stops the executor. */
    @Actor
    public void stopper() {
        returned = manual.executor.shutdownNow();
    }

    /**
     * The outcome, once the driver took in what the actors handed over.
     *
     * @param r the outcome
     */
    @Arbiter
    public void outcome(L_Result r) {
        String admission = future == null ? "refused, " : "accepted, ";
        String listed =
                returned.size() == 1 && returned.get(0) == future ? "returned it" : returned.size() + " returned";
        r.r1 = admission + listed + ", " + manual.afterwards();
    }
}
