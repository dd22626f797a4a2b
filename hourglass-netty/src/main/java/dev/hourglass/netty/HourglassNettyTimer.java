package dev.hourglass.netty;

import io.netty.util.Timeout;
import io.netty.util.Timer;
import io.netty.util.TimerTask;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/** Netty's {@link Timer} over an Hourglass timer, which it owns; see {@link NettyTimers}. */
final class HourglassNettyTimer implements Timer {

    /**
     * The Netty timer whose task runs on this thread, if any: Netty refuses {@code stop()} from
     * inside a task, which could never wait for its own thread.
     */
    private static final ThreadLocal<HourglassNettyTimer> RUNNING = new ThreadLocal<>();

    private final dev.hourglass.timer.Timer timer;

    HourglassNettyTimer(dev.hourglass.timer.Timer timer) {
        this.timer = timer;
    }

    @Override
    public Timeout newTimeout(TimerTask task, long delay, TimeUnit unit) {
        Objects.requireNonNull(task, "task");
        Objects.requireNonNull(unit, "unit");
        NettyTimeout timeout = new NettyTimeout(this, task);
        timeout.handle(timer.schedule(timeout, delay, unit));
        return timeout;
    }

    @Override
    public Set<Timeout> stop() {
        if (RUNNING.get() == this) {
            throw new IllegalStateException("stop() cannot be called from a TimerTask of this timer");
        }
        List<dev.hourglass.timer.Timeout> neverRan = timer.stop();
        Set<Timeout> unexpired = new HashSet<>();
        for (dev.hourglass.timer.Timeout timeout : neverRan) {
            // a shared Hourglass timer also holds timeouts that are not ours
            if (timeout.task() instanceof NettyTimeout && ((NettyTimeout) timeout.task()).timer() == this) {
                unexpired.add((NettyTimeout) timeout.task());
            }
        }
        return unexpired;
    }

    /** Runs a timeout's task, marked as running inside this timer for {@link #stop()}. */
    void run(NettyTimeout timeout) throws Exception {
        HourglassNettyTimer outer = RUNNING.get();
        RUNNING.set(this);
        try {
            timeout.task().run(timeout);
        } finally {
            RUNNING.set(outer);
        }
    }

    @Override
    public String toString() {
        return "HourglassNettyTimer(" + timer + ")";
    }
}
