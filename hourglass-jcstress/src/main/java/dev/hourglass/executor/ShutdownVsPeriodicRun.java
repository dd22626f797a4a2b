package dev.hourglass.executor;

import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.L_Result;

/**
 * Another thread shuts the executor down while the timer runs a fixed-rate task and files its next
 * run: by the default policy (as the JDK's, periodic tasks stop at shutdown) the series runs at most
 * the run already under way, its future is cancelled, and the executor terminates with no timeout
 * left, whichever came first.
 */
@JCStressTest
@Outcome(
        id = "cancelled, terminated at once, 0 runs, 0 pending, 0 held, terminated",
        expect = Expect.ACCEPTABLE,
        desc = "shut down before its first run")
@Outcome(
        id = "cancelled, terminated at once, 1 runs, 0 pending, 0 held, terminated",
        expect = Expect.ACCEPTABLE,
        desc = "shut down during or after its first run")
@Outcome(
        expect = Expect.FORBIDDEN,
        desc = "ran on after the shutdown, not cancelled, not terminated by the actors, or a timeout left")
@State
public class ShutdownVsPeriodicRun {

    private final ManualExecutor manual = new ManualExecutor();
    private final Future<?> future = manual.executor.scheduleAtFixedRate(
            manual.task, ManualExecutor.DELAY, ManualExecutor.DELAY, TimeUnit.NANOSECONDS);

    /** The first run is filed and due when the actors start. */
    public ShutdownVsPeriodicRun() {
        manual.fileAndMakeDue();
    }

    /** The timer's turn runs it and files the next run. */
    @Actor
    public void driver() {
        manual.driver.turn();
    }

    /** Another thread shuts the executor down. */
    @Actor
    public void stopper() {
        manual.executor.shutdown();
    }

    /**
     * The outcome, after the clock jumped past the next runs.
     *
     * @param r the outcome
     */
    @Arbiter
    public void outcome(L_Result r) {
        // Read before afterwards(), whose shutdownNow would drop a task the shutdown missed.
        String terminated = manual.executor.isTerminated() ? "terminated at once" : "not terminated";
        r.r1 = (future.isCancelled() ? "cancelled" : "not cancelled") + ", " + terminated + ", " + manual.afterwards();
    }
}
