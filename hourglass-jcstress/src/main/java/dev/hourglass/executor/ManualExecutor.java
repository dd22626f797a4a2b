package dev.hourglass.executor;

import dev.hourglass.time.ManualNanoClock;
import dev.hourglass.timer.TimerDriver;
import dev.hourglass.timer.Timers;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * An executor over a timer with no thread of its own, driven by the test's threads under a manual
 * clock: every turn happens where the test puts it, and the tasks run inside the turn, on the thread
 * that runs it. No thread is bound, so every call reaches the driver through its intake, as from a
 * caller. A constructor must never bind: jcstress also builds states on the actor threads.
 */
final class ManualExecutor {

    /** The first delay of the task under test: beyond the wheel's first tick, so it is filed. */
    static final long DELAY = TimeUnit.MILLISECONDS.toNanos(5);

    final ManualNanoClock clock = new ManualNanoClock(0);
    final TimerDriver driver = Timers.builder().clock(clock).buildDriver(() -> {});
    final TimerExecutorService executor;

    /** How often the task ran; written inside a turn, read after the actors joined. */
    int runs;

    final Runnable task = () -> runs++;

    /** An executor with the JDK's default shutdown policies. */
    ManualExecutor() {
        this(true);
    }

    /**
     * An executor whose delayed tasks run after a shutdown or not.
     *
     * @param executeDelayedAfterShutdown as {@link TimerExecutorBuilder#executeExistingDelayedTasksAfterShutdown}
     */
    ManualExecutor(boolean executeDelayedAfterShutdown) {
        executor = TimerExecutors.builder()
                .executeExistingDelayedTasksAfterShutdown(executeDelayedAfterShutdown)
                .build(driver);
    }

    /**
     * Schedules the task an hour away, as a caller racing a shutdown does.
     *
     * @return its future, or null if the executor refused it
     */
    Future<?> scheduleInAnHourOrNull() {
        try {
            return executor.schedule(task, 1, TimeUnit.HOURS);
        } catch (RejectedExecutionException refused) {
            return null;
        }
    }

    /** Takes in what the callers handed over and files it, then makes {@link #DELAY} come. */
    void fileAndMakeDue() {
        driver.turn();
        clock.advance(DELAY);
    }

    /**
     * What is left once the actors are done: the driver takes in what they handed over and the
     * timeouts still pending are counted (none, when every task was run, cancelled or dropped);
     * then the clock jumps two seconds twice, past every deadline but an hour's (a series that was
     * not stopped runs again), and shutdownNow drains what the executor still holds (a task it
     * lost track of would be listed there, or keep it from terminating).
     */
    String afterwards() {
        driver.turn();
        long pending = driver.stats().pending();
        for (int i = 0; i < 2; i++) {
            clock.advance(TimeUnit.SECONDS.toNanos(2));
            driver.turn();
        }
        int held = executor.shutdownNow().size();
        driver.turn();
        return runs + " runs, " + pending + " pending, " + held + " held, "
                + (executor.isTerminated() ? "terminated" : "not terminated");
    }
}
