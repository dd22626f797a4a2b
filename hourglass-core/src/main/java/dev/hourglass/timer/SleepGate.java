package dev.hourglass.timer;

import java.util.concurrent.ThreadLocalRandom;

/**
 * How a driver's loop sleeps and who wakes it. The loop announces its sleep (and the deadline it
 * sleeps towards) before it checks the intake one last time; a producer pushes before it reads the
 * announcement. Both sides are volatile, so at least one of them sees the other: either the loop
 * finds the new node and does not sleep, or the producer finds the loop asleep and decides whether
 * to wake it. The waker (unpark, {@code Selector.wakeup()}) must be remembered if it comes before
 * the loop actually waits, so that no wake-up is lost.
 *
 * <p>Messages that can wait a nap ({@link TimerDriver#NAP_NANOS}) may stay on the intake while the
 * loop sleeps, if it sleeps no longer than the nap. An urgent one sets a flag before it reads the
 * announcement, and the loop reads the flag after announcing: the same pairing, so either the loop
 * turns again or the producer sees it asleep.
 *
 * <p>A producer wakes the loop when its deadline is earlier than the one slept towards or the loop
 * sleeps with nothing to wait for. Other messages (cancellations, later deadlines) wake a loop that
 * sleeps longer than a nap with a chance of one in {@link TimerDriver#WAKE_EVERY}, drawn from a
 * thread-local generator, so that they never pile up until a far deadline without any counter
 * shared between producers; a loop that sleeps a nap at most is left to sleep, since it takes them
 * within the nap anyway (under a steady stream of messages the random wakes would otherwise cut
 * most naps short, each costing a wake-up).
 *
 * <p>Complexity: O(1). Thread-safety: {@link #pushed} from any thread; the rest from the loop.
 */
final class SleepGate {

    private final Runnable waker;

    /** True while the loop sleeps or is about to; {@link #wakeAt} is meaningful only then. */
    private volatile boolean sleeping;

    private volatile boolean sleepingIdle;
    private volatile long wakeAt;

    /**
     * True if the loop sleeps no later than its nap's end (the previous turn's reading plus {@link
     * TimerDriver#NAP_NANOS}; the event loop's select may add less than 1 ms): it takes every
     * message then, so random wakes would gain nothing.
     */
    private volatile boolean sleepsANap;

    /** Set by a producer whose message cannot wait a nap, cleared when a turn takes the intake. */
    private volatile boolean urgentWaits;

    SleepGate(Runnable waker) {
        this.waker = waker;
    }

    /** Called by the loop before it takes the intake: the urgent messages so far are in it. */
    void taking() {
        // Read first: a volatile store on every turn would cost a fence for nothing.
        if (urgentWaits) {
            urgentWaits = false;
        }
    }

    /**
     * Announces the sleep; returns false (and takes it back) if a close or an urgent message came
     * meanwhile, or if messages wait on the intake and the loop may not nap until {@code deadline}.
     */
    boolean prepare(boolean idle, long deadline, Intake intake, boolean closed, boolean mayNap) {
        wakeAt = deadline;
        sleepingIdle = idle;
        sleepsANap = mayNap && !idle;
        sleeping = true;
        if (closed || urgentWaits || (!intake.isEmpty() && (idle || !mayNap))) {
            sleeping = false;
            return false;
        }
        return true;
    }

    void awake() {
        sleeping = false;
    }

    /**
     * Called by a producer after it pushed a node due at {@code deadline}, or changed one already
     * on the intake; {@code urgent} if the message cannot wait a nap.
     */
    void pushed(long deadline, boolean mayWake, boolean urgent) {
        if (urgent) {
            urgentWaits = true;
        }
        if (!sleeping) {
            return;
        }
        if (mayWake && (sleepingIdle || deadline - wakeAt < 0)) {
            waker.run();
        } else if (!sleepsANap && (ThreadLocalRandom.current().nextInt() & (TimerDriver.WAKE_EVERY - 1)) == 0) {
            waker.run();
        }
    }

    void wake() {
        waker.run();
    }
}
