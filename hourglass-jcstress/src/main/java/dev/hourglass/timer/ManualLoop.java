package dev.hourglass.timer;

import dev.hourglass.time.ManualNanoClock;
import java.util.concurrent.TimeUnit;

/**
 * A timer with no thread of its own, driven by the test's threads under a manual clock: a sample
 * costs one small queue, and every turn happens where the test puts it. Whichever thread runs a
 * turn plays the timer thread. No thread is bound unless a test's actor binds itself, so the
 * driver treats every other thread as a caller that hands over through the intake. A constructor
 * must never bind: jcstress also builds states on the actor threads.
 */
final class ManualLoop {

    /** The delay of the timeout under test: beyond the wheel's first tick, so it is filed. */
    static final long DELAY = TimeUnit.MILLISECONDS.toNanos(5);

    final ManualNanoClock clock = new ManualNanoClock(0);
    final TimerDriver driver = Timers.builder().clock(clock).buildDriver(() -> {});

    /** How often the task ran; written on the driver's thread, read after the actors joined. */
    int runs;

    private final Runnable task = () -> runs++;

    /** Schedules the counting task; from any thread but the driver's it goes through the intake. */
    Timeout schedule(long delayNanos) {
        return driver.schedule(task, delayNanos, TimeUnit.NANOSECONDS);
    }

    /** Makes the calling thread the driver's, as a loop does when it starts. */
    void bind() {
        if (!driver.bind()) {
            throw new IllegalStateException("bound twice");
        }
    }

    /** Files what was scheduled so far: a turn takes it in from the intake. */
    void file() {
        driver.turn();
    }

    /**
     * Files what was scheduled so far and moves the clock to {@link #DELAY}: the next turn fires it.
     * A test's constructor calls this, so that its driver actor does nothing but that turn and races
     * the callers at the very moment of firing.
     */
    void fileAndMakeDue() {
        file();
        clock.advance(DELAY);
    }

    /** Jumps far past every deadline used in the tests and runs a turn. */
    void turnMuchLater() {
        clock.advance(TimeUnit.SECONDS.toNanos(1));
        driver.turn();
    }

    /** The driver's counts, as the outcomes show them: each timeout counted once, none pending. */
    String counts() {
        TimerStats stats = driver.stats();
        return stats.fired() + " fired, " + stats.cancelled() + " cancelled, " + stats.pending() + " pending";
    }

    /** The phase of a timeout, as the outcomes name it. */
    static String phase(Timeout timeout) {
        if (timeout.isCancelled()) {
            return "cancelled";
        }
        return timeout.isExpired() ? "expired" : "pending";
    }
}
