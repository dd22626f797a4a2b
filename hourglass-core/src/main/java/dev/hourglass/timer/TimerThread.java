package dev.hourglass.timer;

import dev.hourglass.time.NanoClock;
import java.util.concurrent.locks.LockSupport;

/**
 * The timer-thread loop: one thread drives a {@link TimerDriver} and parks until the next deadline
 * (for a wheel, the next tick boundary that holds a timer). It is woken only by an earlier
 * deadline, a close, a jump of a manual clock, or, while it sleeps longer than a nap, now and then
 * by other messages, so an idle timer costs no CPU; under a clock that does not flow it sleeps
 * until the clock jumps. After a long pause it catches up in one poll, which never walks empty
 * ticks one by one.
 *
 * <p>Complexity: a turn costs the structure's work. Ordering: the structure's.
 *
 * <p>Thread-safety: {@link #wake()} from any thread; {@link #run()} on the thread it was made for.
 */
final class TimerThread implements Runnable {

    private final NanoClock clock;
    private final boolean clockFlows;
    private final Runnable wake = this::wake;
    private TimerDriver driver;
    private volatile Thread thread;

    private TimerThread(NanoClock clock) {
        this.clock = clock;
        this.clockFlows = clock.flows();
    }

    /** Starts a thread that drives a new timer. */
    static TimerDriver start(TimerSettings settings) {
        TimerThread loop = new TimerThread(settings.clock);
        TimerDriver driver = new TimerDriver(settings, loop.wake);
        loop.driver = driver;
        Thread thread = driver.newThread(loop);
        loop.thread = thread;
        thread.start();
        return driver;
    }

    void wake() {
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    /** The timer thread's loop; not for users. */
    @Override
    public void run() {
        if (Thread.currentThread() != thread || !driver.bind()) {
            return; // not this loop's thread, or a stop before the start did the stopping
        }
        clock.addJumpListener(wake);
        try {
            while (!driver.isClosed()) {
                driver.turn();
                boolean idle = !driver.hasTimers();
                long next = idle ? 0 : driver.nextDeadline();
                if (!driver.prepareToSleep(idle, next)) {
                    continue;
                }
                // A stray interrupt, from a task or from outside, would make every park return.
                Thread.interrupted();
                long wait = idle ? Long.MAX_VALUE : next - clock.nanoTime();
                if (wait > 0) {
                    if (idle || !clockFlows) {
                        LockSupport.park(this);
                    } else {
                        LockSupport.parkNanos(this, wait);
                    }
                }
                driver.awake();
            }
        } finally {
            clock.removeJumpListener(wake);
            driver.shutdown();
        }
    }

    @Override
    public String toString() {
        return "TimerThread[" + thread + "]";
    }
}
