package dev.hourglass.patterns;

import dev.hourglass.timer.Timeout;
import dev.hourglass.timer.Timer;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;

/**
 * Timeouts for {@link CompletableFuture} on a {@link Timer} of your choice, where the JDK's {@link
 * CompletableFuture#orTimeout} always uses one hidden static thread. When the future completes
 * first (normally, exceptionally or by cancellation) the timeout is cancelled at once, and the timer
 * keeps no reference to the future: nothing is retained.
 *
 * <p>The timer's task completes the future, so the dependent stages that this completion triggers
 * run where the timer runs its tasks (its own thread unless built with an executor): attach slow
 * stages with the {@code *Async} methods.
 *
 * <p>Complexity: one timer schedule and one dependent stage per call; O(1) to cancel.
 *
 * <p>Ordering: whichever comes first, the future's own completion or the timeout, wins; the other
 * changes nothing.
 *
 * <p>Thread-safety: the methods may be called from any thread.
 */
public final class FutureTimeouts {

    private FutureTimeouts() {}

    /**
     * Completes {@code future} exceptionally with a {@link TimeoutException} that states the timeout,
     * unless it completes within {@code timeout}. A future already done is returned untouched and
     * nothing is scheduled.
     *
     * @param timer the timer that measures the timeout
     * @param future the future to bound
     * @param timeout how long it may take; zero or less means now, longer than {@link
     *     dev.hourglass.timer.Timer#MAX_DELAY_NANOS} saturates
     * @param <T> the future's result type
     * @return {@code future}
     * @throws NullPointerException if an argument is null
     * @throws IllegalStateException if the timer is closed (the future is left as it was)
     * @throws java.util.concurrent.RejectedExecutionException if the timer's pending limit is reached
     */
    public static <T> CompletableFuture<T> orTimeout(Timer timer, CompletableFuture<T> future, Duration timeout) {
        Objects.requireNonNull(timer, "timer");
        Objects.requireNonNull(future, "future");
        requireTimeout(timeout);
        return bound(timer, future, timeout, new Expiry<>(future, null, timeout));
    }

    /**
     * Completes {@code future} with {@code value} unless it completes within {@code timeout}. A
     * future already done is returned untouched and nothing is scheduled.
     *
     * @param timer the timer that measures the timeout
     * @param future the future to bound
     * @param value the result on timeout, may be null
     * @param timeout how long it may take; zero or less means now, longer than {@link
     *     dev.hourglass.timer.Timer#MAX_DELAY_NANOS} saturates
     * @param <T> the future's result type
     * @return {@code future}
     * @throws NullPointerException if {@code timer}, {@code future} or {@code timeout} is null
     * @throws IllegalStateException if the timer is closed (the future is left as it was)
     * @throws java.util.concurrent.RejectedExecutionException if the timer's pending limit is reached
     */
    public static <T> CompletableFuture<T> completeOnTimeout(
            Timer timer, CompletableFuture<T> future, T value, Duration timeout) {
        Objects.requireNonNull(timer, "timer");
        Objects.requireNonNull(future, "future");
        requireTimeout(timeout);
        return bound(timer, future, timeout, new Expiry<>(future, value, null));
    }

    private static <T> CompletableFuture<T> bound(
            Timer timer, CompletableFuture<T> future, Duration timeout, Expiry<T> expiry) {
        if (future.isDone()) {
            return future;
        }
        expiry.timeout = timer.schedule(expiry, timeout);
        // Registered after the timeout exists, so the canceller always has it; a future completed
        // meanwhile runs it at once.
        future.whenComplete(expiry);
        return future;
    }

    private static void requireTimeout(Duration timeout) {
        // As for the timer: zero or less means now, longer than Timer.MAX_DELAY_NANOS saturates.
        Objects.requireNonNull(timeout, "timeout");
    }

    /**
     * Both sides of one bounded future: the timer's task, and the canceller the future runs when it
     * completes. It drops the future on completion so that a cancelled timeout the timer still holds
     * for a while does not keep it reachable.
     */
    private static final class Expiry<T> implements Runnable, BiConsumer<T, Throwable> {

        private volatile CompletableFuture<T> future;
        private final T value;

        /** Null for completeOnTimeout; the timeout to report for orTimeout. */
        private final Duration failAfter;

        /** Set before the canceller is registered, which publishes it to the completing thread. */
        Timeout timeout;

        Expiry(CompletableFuture<T> future, T value, Duration failAfter) {
            this.future = future;
            this.value = value;
            this.failAfter = failAfter;
        }

        @Override
        public void run() {
            CompletableFuture<T> target = future;
            if (target == null || target.isDone()) {
                return;
            }
            if (failAfter != null) {
                target.completeExceptionally(new TimeoutException("future did not complete within " + failAfter));
            } else {
                target.complete(value);
            }
        }

        @Override
        public void accept(T result, Throwable error) {
            future = null;
            timeout.cancel();
        }
    }
}
