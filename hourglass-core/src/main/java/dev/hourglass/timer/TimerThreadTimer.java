package dev.hourglass.timer;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;

/**
 * The timer-thread driver: one thread owns the queue and sleeps until the next deadline (for a
 * wheel, the next tick boundary that holds a timer). It is woken only by an earlier deadline, a
 * close, a jump of a manual clock, or every 1,024 messages from other threads, so an idle timer
 * costs no CPU; under a clock that does not
 * flow it sleeps until the clock jumps. After a long pause it catches up in one poll, which never
 * walks empty ticks one by one.
 *
 * <p>Complexity: a schedule, cancel or reschedule is one CAS for the caller and the structure's cost
 * on the timer thread.
 *
 * <p>Ordering: due tasks run in the structure's order.
 *
 * <p>Thread-safety: safe from any thread.
 */
final class TimerThreadTimer extends TimerCore implements Runnable {

    private final Thread thread;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final Runnable wake = this::wakeUp;
    private final boolean clockFlows;

    TimerThreadTimer(TimerSettings settings) {
        super(settings);
        this.clockFlows = settings.clock.flows();
        this.thread = settings.threadFactory.newThread(this);
        if (thread == null) {
            throw new IllegalArgumentException("threadFactory returned null");
        }
        thread.start();
    }

    @Override
    void wakeUp() {
        LockSupport.unpark(thread);
    }

    /** The timer thread's loop; not for users. */
    @Override
    public void run() {
        if (Thread.currentThread() != thread) {
            throw new IllegalStateException("the timer's loop runs on its own thread only");
        }
        owner = thread;
        clock.addJumpListener(wake);
        try {
            while (!closing()) {
                turn();
                boolean idle = !hasTimers();
                long next = idle ? 0 : nextDeadline();
                if (!prepareToSleep(idle, next)) {
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
                awake();
            }
        } finally {
            clock.removeJumpListener(wake);
            shutdown();
            stopped.countDown();
        }
    }

    @Override
    public List<Timeout> close() {
        if (!beginClose()) {
            return List.of();
        }
        if (Thread.currentThread() == thread) {
            // A task cannot wait for the thread it runs on: the loop stops after this turn.
            return List.of();
        }
        return neverRanOnceStopped(stopped);
    }

    @Override
    public String toString() {
        return "TimerThreadTimer[" + thread.getName() + ", " + queue + "]";
    }
}
