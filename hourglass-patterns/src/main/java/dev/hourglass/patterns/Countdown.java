package dev.hourglass.patterns;

import dev.hourglass.time.NanoClock;
import dev.hourglass.timer.Timeout;
import dev.hourglass.timer.Timer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A countdown: a tick callback every interval and a completion callback at the end; pause, resume,
 * cancel.
 *
 * <p>No drift: tick k is due at start + k × interval and completion at start + duration, both plus
 * the time spent paused, computed from the start time rather than from the previous tick, so a late
 * tick does not push the next ones. Ticks come strictly before the end: a countdown of duration d
 * and interval i ticks ⌈d / i⌉ − 1 times, then completes (30 s by 1 s: ticks 1 to 29, then the
 * completion at 30 s). Resuming continues the interrupted interval where it stopped. When the timer
 * is late by several intervals, each missed tick gets its own call, in order, then the completion
 * if it is due too.
 *
 * <p>Complexity: O(1) per tick and per operation; one timer timeout, rescheduled from tick to
 * tick.
 *
 * <p>Ordering: ticks in order, each once, then the completion, once. Once {@link #cancel()} or
 * {@link #pause()} has returned, no callback starts, except one the timer's thread had already
 * begun (called from a callback, they take effect before the next one).
 *
 * <p>Thread-safety: every method may be called from any thread, including from the callbacks. The
 * callbacks run on the timer's thread (or its executor), one at a time, never while the countdown's
 * lock is held.
 */
public final class Countdown implements AutoCloseable {

    private final Timer timer;
    private final NanoClock clock;
    private final long durationNanos;
    private final long intervalNanos;
    private final long totalTicks;
    private final CountdownTickListener onTick;
    private final Runnable onComplete;
    private final Runnable fire = this::fire;

    // Guarded by this.
    private CountdownState state = CountdownState.RUNNING;
    /** The start time shifted by the time spent paused: everything is due relative to it. */
    private long start;
    /** When the countdown was paused or cancelled, while it is. */
    private long stoppedAt;

    private long delivered;
    /** True while a thread is delivering callbacks: the only thread that may. */
    private boolean emitting;

    private Timeout timeout;

    Countdown(
            Timer timer,
            NanoClock clock,
            long durationNanos,
            long intervalNanos,
            CountdownTickListener onTick,
            Runnable onComplete) {
        this.timer = timer;
        this.clock = clock;
        this.durationNanos = durationNanos;
        this.intervalNanos = intervalNanos;
        this.totalTicks = durationNanos == 0 ? 0 : (durationNanos - 1) / intervalNanos;
        this.onTick = onTick;
        this.onComplete = onComplete;
    }

    /**
     * Starts configuring a countdown that schedules on {@code timer} and reads {@code clock}.
     *
     * @param timer the timer that runs the callbacks, not null
     * @param clock the timer's clock, not null
     * @return a builder
     * @throws NullPointerException if an argument is null
     */
    public static CountdownBuilder builder(Timer timer, NanoClock clock) {
        return new CountdownBuilder(timer, clock);
    }

    synchronized void begin() {
        start = clock.nanoTime();
        arm(start);
    }

    /**
     * Pauses the countdown: no callback starts until {@link #resume()}, and paused time does not
     * count.
     *
     * @throws IllegalStateException if the countdown is not running
     */
    public synchronized void pause() {
        if (state != CountdownState.RUNNING) {
            throw new IllegalStateException("countdown is not running: " + state);
        }
        stoppedAt = clock.nanoTime();
        state = CountdownState.PAUSED;
        disarm();
    }

    /**
     * Resumes a paused countdown: the interval that was interrupted continues with the time it had
     * left.
     *
     * @throws IllegalStateException if the countdown is not paused, or the timer is closed
     */
    public synchronized void resume() {
        if (state != CountdownState.PAUSED) {
            throw new IllegalStateException("countdown is not paused: " + state);
        }
        long now = clock.nanoTime();
        start += now - stoppedAt;
        state = CountdownState.RUNNING;
        arm(now);
    }

    /**
     * Cancels the countdown if it is running or paused; the completion callback will not run.
     *
     * @return true if this call cancelled it; false if it had completed or was already cancelled
     */
    public synchronized boolean cancel() {
        if (state == CountdownState.COMPLETED || state == CountdownState.CANCELLED) {
            return false;
        }
        if (state == CountdownState.RUNNING) {
            stoppedAt = clock.nanoTime();
        }
        state = CountdownState.CANCELLED;
        disarm();
        return true;
    }

    /** Cancels the countdown, as {@link #cancel()} does, so it works in try-with-resources. */
    @Override
    public void close() {
        cancel();
    }

    /**
     * Returns the state.
     *
     * @return running, paused, completed or cancelled
     */
    public synchronized CountdownState state() {
        return state;
    }

    /**
     * Returns the time left by the clock, not counting pauses: frozen while paused or once
     * cancelled, zero once the end has come (even if the completion callback has not run yet).
     *
     * @return from zero to the duration
     */
    public synchronized Duration remaining() {
        long elapsed;
        switch (state) {
            case RUNNING:
                elapsed = clock.nanoTime() - start;
                break;
            case COMPLETED:
                return Duration.ZERO;
            default:
                elapsed = stoppedAt - start;
        }
        return Duration.ofNanos(Math.max(0, Math.min(durationNanos, durationNanos - elapsed)));
    }

    /**
     * Returns how many tick callbacks have not been made yet; read from a tick callback, it counts
     * the ticks after that one.
     *
     * @return from 0 to ⌈duration / interval⌉ − 1
     */
    public synchronized long ticksLeft() {
        return totalTicks - delivered;
    }

    /** The timer's entry point: delivers every due callback, one at a time, outside the lock. */
    private void fire() {
        synchronized (this) {
            if (emitting) {
                return; // the thread already delivering will see what is due
            }
            emitting = true;
        }
        boolean clean = false;
        try {
            while (true) {
                long tick;
                long due;
                synchronized (this) {
                    if (state != CountdownState.RUNNING) {
                        emitting = false;
                        clean = true;
                        return;
                    }
                    long now = clock.nanoTime();
                    if (delivered < totalTicks) {
                        due = start + (delivered + 1) * intervalNanos;
                    } else {
                        due = start + durationNanos;
                    }
                    if (now - due < 0) {
                        arm(now);
                        emitting = false;
                        clean = true;
                        return;
                    }
                    if (delivered < totalTicks) {
                        tick = ++delivered;
                    } else {
                        tick = 0;
                        state = CountdownState.COMPLETED;
                        disarm();
                        emitting = false;
                        clean = true;
                    }
                }
                if (tick == 0) {
                    onComplete.run();
                    return;
                }
                onTick.onTick(tick, due);
            }
        } finally {
            if (!clean) {
                // A tick callback threw: the timer reports it; the countdown goes on.
                synchronized (this) {
                    emitting = false;
                    if (state == CountdownState.RUNNING) {
                        arm(clock.nanoTime());
                    }
                }
            }
        }
    }

    /** Points the timeout at the next tick or the end. Under the lock, while running. */
    private void arm(long now) {
        long due = delivered < totalTicks ? start + (delivered + 1) * intervalNanos : start + durationNanos;
        long delay = Math.max(0, due - now);
        if (timeout == null || !timeout.reschedule(delay, TimeUnit.NANOSECONDS)) {
            timeout = timer.schedule(fire, delay, TimeUnit.NANOSECONDS);
        }
    }

    private void disarm() {
        if (timeout != null) {
            timeout.cancel();
            timeout = null;
        }
    }

    @Override
    public synchronized String toString() {
        return "Countdown[" + state + ", " + remaining() + " left, " + ticksLeft() + " ticks left]";
    }
}
