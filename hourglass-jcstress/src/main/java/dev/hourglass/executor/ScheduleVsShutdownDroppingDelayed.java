package dev.hourglass.executor;

import java.util.concurrent.Future;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.L_Result;

/**
 * A caller schedules a task an hour away while another thread shuts down an executor whose delayed
 * tasks do not run after a shutdown: the task is refused, or admitted and then cancelled by the
 * shutdown (its arming, when it comes after, cancels the timeout it gets); it never runs, no timeout
 * is left and the executor terminates by itself.
 */
@JCStressTest
@Outcome(
        id = "refused, terminated at once, 0 runs, 0 pending, 0 held, terminated",
        expect = Expect.ACCEPTABLE,
        desc = "the shutdown came first")
@Outcome(
        id = "cancelled, terminated at once, 0 runs, 0 pending, 0 held, terminated",
        expect = Expect.ACCEPTABLE,
        desc = "admitted first, then dropped by the shutdown's policy")
@Outcome(
        expect = Expect.FORBIDDEN,
        desc = "kept or run after the shutdown, a timeout left, or not terminated by the actors")
@State
public class ScheduleVsShutdownDroppingDelayed {

    private final ManualExecutor manual = new ManualExecutor(false);
    private Future<?> future;

    /** Schedules a task an hour away, or is refused. */
    @Actor
    public void caller() {
        future = manual.scheduleInAnHourOrNull();
    }

    /** Shuts the executor down. */
    @Actor
    public void stopper() {
        manual.executor.shutdown();
    }

    /**
     * The outcome, once the driver took in what the actors handed over.
     *
     * @param r the outcome
     */
    @Arbiter
    public void outcome(L_Result r) {
        String admission = future == null ? "refused" : future.isCancelled() ? "cancelled" : "kept";
        // Read before afterwards(), whose shutdownNow would take out a task the shutdown missed.
        String terminated = manual.executor.isTerminated() ? "terminated at once" : "not terminated";
        r.r1 = admission + ", " + terminated + ", " + manual.afterwards();
    }
}
