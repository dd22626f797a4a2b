package dev.hourglass.timer;

import dev.hourglass.queue.TimerStructure;
import dev.hourglass.time.NanoClock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.Selector;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Chooses how a {@link Timer} is built: its structure, tick, clock, executor, thread factory,
 * pending limit and exception handler. Every setting has a default: a hierarchical wheel with a 1
 * ms tick, the system clock, tasks run on the driver's thread, a daemon thread, no pending limit,
 * exceptions logged.
 *
 * <p>Complexity: O(1) per setting. Ordering: not applicable.
 *
 * <p>Thread-safety: none; configure on one thread, then build.
 */
public final class TimerBuilder {

    private static final AtomicInteger THREADS = new AtomicInteger();

    private TimerStructure structure = TimerStructure.HIERARCHICAL_WHEEL;
    private long tickNanos = 1_000_000;
    private NanoClock clock = NanoClock.system();
    private Executor executor;
    private ThreadFactory threadFactory = task -> {
        Thread thread = new Thread(task, "hourglass-timer-" + THREADS.incrementAndGet());
        thread.setDaemon(true);
        return thread;
    };
    private long maxPending = Long.MAX_VALUE;
    private Timer.ExceptionHandler exceptionHandler = (timeout, error) -> System.getLogger("dev.hourglass.timer")
            .log(System.Logger.Level.WARNING, "task of " + timeout + " threw", error);

    TimerBuilder() {}

    /**
     * Chooses the queue structure behind the timer.
     *
     * @param structure any structure; wheels run tasks up to one tick late
     * @return this builder
     */
    public TimerBuilder structure(TimerStructure structure) {
        this.structure = Objects.requireNonNull(structure, "structure");
        return this;
    }

    /**
     * Chooses the tick of a wheel (exact structures ignore it).
     *
     * @param tick positive
     * @return this builder
     * @throws IllegalArgumentException if {@code tick} is not positive or exceeds {@code
     *     Long.MAX_VALUE} nanoseconds
     */
    public TimerBuilder tick(Duration tick) {
        Objects.requireNonNull(tick, "tick");
        if (tick.isNegative() || tick.isZero() || tick.compareTo(Duration.ofNanos(Long.MAX_VALUE)) > 0) {
            throw new IllegalArgumentException("tick must be positive and at most Long.MAX_VALUE ns: " + tick);
        }
        this.tickNanos = tick.toNanos();
        return this;
    }

    /**
     * Chooses the clock; tests pass a {@link dev.hourglass.time.ManualNanoClock}.
     *
     * @param clock the clock
     * @return this builder
     */
    public TimerBuilder clock(NanoClock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
        return this;
    }

    /**
     * Runs tasks on {@code executor} (a worker pool, virtual threads) instead of the driver's thread.
     *
     * @param executor where tasks run
     * @return this builder
     */
    public TimerBuilder executor(Executor executor) {
        this.executor = Objects.requireNonNull(executor, "executor");
        return this;
    }

    /**
     * Chooses the factory of the timer thread.
     *
     * @param threadFactory makes the one thread the timer uses
     * @return this builder
     */
    public TimerBuilder threadFactory(ThreadFactory threadFactory) {
        this.threadFactory = Objects.requireNonNull(threadFactory, "threadFactory");
        return this;
    }

    /**
     * Limits how many timeouts may be pending at once; beyond it schedule throws {@link
     * java.util.concurrent.RejectedExecutionException}.
     *
     * @param maxPending at least 1
     * @return this builder
     * @throws IllegalArgumentException if {@code maxPending} is less than 1
     */
    public TimerBuilder maxPending(long maxPending) {
        if (maxPending < 1) {
            throw new IllegalArgumentException("maxPending must be at least 1: " + maxPending);
        }
        this.maxPending = maxPending;
        return this;
    }

    /**
     * Chooses who hears about exceptions thrown by tasks.
     *
     * @param exceptionHandler receives each task's exception
     * @return this builder
     */
    public TimerBuilder exceptionHandler(Timer.ExceptionHandler exceptionHandler) {
        this.exceptionHandler = Objects.requireNonNull(exceptionHandler, "exceptionHandler");
        return this;
    }

    /**
     * Starts a timer driven by a dedicated thread that sleeps until the next deadline.
     *
     * @return the running timer
     */
    public Timer startTimerThread() {
        return new TimerThreadTimer(settings());
    }

    /**
     * Opens an event loop: a selector whose one thread handles I/O and drives the timers. It does
     * not run until {@link EventLoop#start()} or {@link EventLoop#run()}, so channels can be
     * registered first.
     *
     * @return the loop, not running yet
     * @throws UncheckedIOException if the selector cannot be opened
     */
    public EventLoop openEventLoop() {
        try {
            return new EventLoop(settings(), Selector.open());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a selector", e);
        }
    }

    TimerSettings settings() {
        return new TimerSettings(structure, tickNanos, clock, executor, threadFactory, maxPending, exceptionHandler);
    }
}
