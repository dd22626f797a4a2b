package dev.hourglass.executor;

import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.L_Result;

/**
 * A caller schedules a delayed task while another thread calls shutdownNow: the task is either
 * refused or in the list shutdownNow returns, never lost, never run; the executor terminates and
 * leaves no timeout on the timer.
 */
@JCStressTest
@Outcome(
        id = "refused, 0 returned, 0 runs, terminated, 0 pending",
        expect = Expect.ACCEPTABLE,
        desc = "the shutdown came first")
@Outcome(
        id = "accepted, returned it, 0 runs, terminated, 0 pending",
        expect = Expect.ACCEPTABLE,
        desc = "admitted first, then returned as never run")
@Outcome(expect = Expect.FORBIDDEN, desc = "lost, returned though refused, run, a task counted or a timeout left")
@State
public class ScheduleVsShutdownNow {

    private final ManualExecutor manual = new ManualExecutor();
    private Future<?> future;
    private List<Runnable> returned;

    /** Schedules a task an hour away, or is refused. */
    @Actor
    public void caller() {
        try {
            future = manual.executor.schedule(manual.task, 1, TimeUnit.HOURS);
        } catch (RejectedExecutionException refused) {
            future = null;
        }
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
