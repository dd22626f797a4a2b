package dev.hourglass.netty;

import io.netty.util.Timeout;
import io.netty.util.Timer;
import io.netty.util.TimerTask;

/**
 * One Netty timeout, and at the same time the task its Hourglass timeout carries: the Hourglass
 * node and this object are all a timeout costs, with no wrapper in between.
 */
final class NettyTimeout implements Timeout, dev.hourglass.timer.TimerTask {

    private final HourglassNettyTimer timer;
    private final TimerTask task;

    /**
     * The Hourglass timeout carrying this one. Written by the scheduling thread before {@code
     * newTimeout} returns, and again (the same value) by the timer's thread before the task runs,
     * since a due task may run before the first write is visible there.
     */
    private dev.hourglass.timer.Timeout handle;

    NettyTimeout(HourglassNettyTimer timer, TimerTask task) {
        this.timer = timer;
        this.task = task;
    }

    void handle(dev.hourglass.timer.Timeout handle) {
        this.handle = handle;
    }

    @Override
    public void run(dev.hourglass.timer.Timeout handle) throws Exception {
        this.handle = handle;
        timer.run(this);
    }

    @Override
    public void cancelled(dev.hourglass.timer.Timeout handle) {
        task.cancelled(this);
    }

    @Override
    public Timer timer() {
        return timer;
    }

    @Override
    public TimerTask task() {
        return task;
    }

    @Override
    public boolean isExpired() {
        return handle.isExpired();
    }

    @Override
    public boolean isCancelled() {
        return handle.isCancelled();
    }

    @Override
    public boolean cancel() {
        if (!handle.cancel()) {
            return false;
        }
        timer.left();
        return true;
    }

    @Override
    public String toString() {
        return "NettyTimeout(" + task + (isCancelled() ? ", cancelled" : isExpired() ? ", expired" : "") + ")";
    }
}
