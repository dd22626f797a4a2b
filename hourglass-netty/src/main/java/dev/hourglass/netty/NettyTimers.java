package dev.hourglass.netty;

import dev.hourglass.timer.Timer;
import java.util.Objects;

/**
 * Makes Netty timers ({@link io.netty.util.Timer}) backed by an Hourglass {@link Timer}, for
 * libraries that take one: Lettuce's {@code ClientResources.builder().timer(..)}, AsyncHttpClient,
 * Redisson, Dubbo.
 *
 * <pre>{@code
 * Timer timer = Timers.builder().tick(Duration.ofMillis(1)).startTimerThread();
 * io.netty.util.Timer nettyTimer = NettyTimers.wrap(timer);
 * }</pre>
 *
 * <p>The Netty timer keeps the contract of Netty 4.2's {@code HashedWheelTimer}: {@code
 * newTimeout} refuses null arguments with a {@link NullPointerException}, throws {@link
 * IllegalStateException} once stopped and {@link java.util.concurrent.RejectedExecutionException}
 * beyond the {@linkplain #wrap(Timer, long) pending limit}; {@code stop()} returns the Netty timeouts that never ran, each cancelled, and throws
 * {@link IllegalStateException} when called from one of its own tasks; a successful {@code
 * Timeout.cancel()} is followed by {@code TimerTask.cancelled(Timeout)} on the timer's thread
 * (when the driver takes the cancel in, at its next turn: an idle Hourglass timer may come to it
 * only at its next deadline, where Netty's wheel ticks through it within a tick); a
 * task's exception goes to the Hourglass timer's exception handler (by default a warning on the
 * {@code System.Logger} "dev.hourglass.timer") and the timer goes on.
 *
 * <p>Ownership: the Netty timer owns the Hourglass timer it wraps: its {@code stop()} stops that
 * timer, cancelling every timeout pending on it, those scheduled directly on the Hourglass timer
 * included (they are not in the returned set). To share one Hourglass timer between a library and
 * your own code, hand the library the Netty timer only if it leaves a timer it was given running
 * (Lettuce does), and stop the Hourglass timer yourself.
 *
 * <p>Complexity: {@code newTimeout} and {@code cancel} cost the Hourglass timer's schedule and
 * cancel plus one small object per timeout (the Netty {@code Timeout}, which is also the task the
 * Hourglass timeout carries). Ordering: that of the Hourglass timer.
 *
 * <p>Thread-safety: the Netty timer and its timeouts may be used from any thread.
 */
public final class NettyTimers {

    private NettyTimers() {}

    /**
     * Returns a Netty timer that schedules on {@code timer} and owns it, with no pending limit of
     * its own (the Hourglass timer's, if any, still applies).
     *
     * @param timer the Hourglass timer to schedule on; its {@code stop()} becomes the Netty
     *     timer's
     * @return the Netty timer
     * @throws NullPointerException if {@code timer} is null
     */
    public static io.netty.util.Timer wrap(Timer timer) {
        return wrap(timer, 0);
    }

    /**
     * Returns a Netty timer that schedules on {@code timer} and owns it, and refuses a new timeout
     * with a {@link java.util.concurrent.RejectedExecutionException} while {@code
     * maxPendingTimeouts} of its timeouts are pending, as the {@code HashedWheelTimer} parameter of
     * that name does. A timeout stops being pending when its task starts or its cancel succeeds;
     * timeouts scheduled directly on the Hourglass timer are not counted. Under a limit each
     * timeout costs two atomic additions more, on a counter shared by every caller.
     *
     * @param timer the Hourglass timer to schedule on; its {@code stop()} becomes the Netty
     *     timer's
     * @param maxPendingTimeouts the limit; 0 or less means none, as in Netty
     * @return the Netty timer
     * @throws NullPointerException if {@code timer} is null
     */
    public static io.netty.util.Timer wrap(Timer timer, long maxPendingTimeouts) {
        return new HourglassNettyTimer(Objects.requireNonNull(timer, "timer"), maxPendingTimeouts);
    }
}
