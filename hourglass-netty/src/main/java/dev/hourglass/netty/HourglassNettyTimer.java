package dev.hourglass.netty;

import io.netty.util.Timeout;
import io.netty.util.Timer;
import io.netty.util.TimerTask;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** Netty's {@link Timer} over an Hourglass timer, which it owns; see {@link NettyTimers}. */
final class HourglassNettyTimer implements Timer {

    /**
     * The Netty timer whose task runs on this thread, if any: Netty refuses {@code stop()} from
     * inside a task, which could never wait for its own thread.
     */
    private static final ThreadLocal<HourglassNettyTimer> RUNNING = new ThreadLocal<>();

    private final dev.hourglass.timer.Timer timer;

    /** The pending limit, or 0 or less for none (Netty's convention). */
    private final long maxPending;

    /**
     * Netty timeouts neither run nor cancelled, counted only under a limit. A timeout leaves the
     * count when its cancel succeeds, not when the driver takes the cancel in (which an idle
     * Hourglass timer may do only at its next deadline), so cancelling frees a place at once.
     */
    private final AtomicLong pending = new AtomicLong();

    HourglassNettyTimer(dev.hourglass.timer.Timer timer, long maxPending) {
        this.timer = timer;
        this.maxPending = maxPending;
    }

    @Override
    public Timeout newTimeout(TimerTask task, long delay, TimeUnit unit) {
        Objects.requireNonNull(task, "task");
        Objects.requireNonNull(unit, "unit");
        if (maxPending > 0 && pending.incrementAndGet() > maxPending) {
            pending.decrementAndGet();
            throw new RejectedExecutionException("pending limit of " + maxPending + " Netty timeouts reached");
        }
        NettyTimeout timeout = new NettyTimeout(this, task);
        try {
            timeout.handle(timer.schedule(timeout, delay, unit));
        } catch (RuntimeException e) {
            left();
            throw e;
        }
        return timeout;
    }

    /** A timeout stopped being pending: it started running, or its cancel succeeded. */
    void left() {
        if (maxPending > 0) {
            pending.decrementAndGet();
        }
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
        left();
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
