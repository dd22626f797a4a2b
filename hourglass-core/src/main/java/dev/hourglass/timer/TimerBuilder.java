package dev.hourglass.timer;

import dev.hourglass.queue.TimerQueue;
import dev.hourglass.queue.TimerQueues;
import dev.hourglass.queue.TimerStructure;
import dev.hourglass.time.NanoClock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongFunction;

/**
 * Chooses how a {@link Timer} is built: its structure (or a queue factory of your own), tick,
 * wheel layout, clock, executor, thread factory, pending limit and exception handler. Every setting
 * has a default: {@link TimerQueues#DEFAULT_STRUCTURE} (a hierarchical wheel) with {@link
 * TimerQueues#DEFAULT_TICK_NANOS} (0.1 ms) and the 256 + 4 × 64 layout, the system
 * clock, tasks run on the driver's thread, a daemon thread, no pending limit, exceptions logged.
 *
 * <p>Complexity: O(1) per setting. Ordering: not applicable.
 *
 * <p>Thread-safety: none; configure on one thread, then build.
 */
public final class TimerBuilder {

    private static final AtomicInteger THREADS = new AtomicInteger();

    private TimerStructure structure = TimerQueues.DEFAULT_STRUCTURE;
    private long tickNanos = TimerQueues.DEFAULT_TICK_NANOS;
    private int slots;
    private int[] layout = {TimerQueues.DEFAULT_NEAR_BITS, TimerQueues.DEFAULT_LEVEL_BITS, TimerQueues.DEFAULT_LEVELS};
    private LongFunction<? extends TimerQueue<?>> queueFactory;
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
     * Chooses the number of slots of a simple, hashed or sorted hashed wheel (other structures
     * ignore it); by default {@link TimerQueues#DEFAULT_SIMPLE_WHEEL_SLOTS} for the simple wheel and
     * {@link TimerQueues#DEFAULT_HASHED_WHEEL_SLOTS} for the hashed ones.
     *
     * @param slots a positive power of two
     * @return this builder
     * @throws IllegalArgumentException if {@code slots} is not a positive power of two
     */
    public TimerBuilder slots(int slots) {
        if (slots <= 0 || Integer.bitCount(slots) != 1) {
            throw new IllegalArgumentException("slots must be a positive power of two: " + slots);
        }
        this.slots = slots;
        return this;
    }

    /**
     * Chooses the layout of a hierarchical wheel (other structures ignore it), as {@link
     * TimerQueues#hierarchicalWheel(long, long, int, int, int)} describes it.
     *
     * @param nearBits the near wheel has {@code 2^nearBits} slots; from 1 to 16
     * @param levelBits each upper wheel has {@code 2^levelBits} slots; from 1 to 16
     * @param levels the number of upper wheels, at least 0, with {@code nearBits + levels *
     *     levelBits} at most 62
     * @return this builder
     * @throws IllegalArgumentException if an argument is out of its bounds, naming it
     */
    public TimerBuilder hierarchicalLayout(int nearBits, int levelBits, int levels) {
        // The wheel's own checks name the bad argument; a one-level trial wheel is cheap enough.
        TimerQueues.hierarchicalWheel(0, 1, nearBits, levelBits, levels);
        this.layout = new int[] {nearBits, levelBits, levels};
        return this;
    }

    /**
     * Uses queues made by {@code factory} instead of a {@linkplain #structure structure}: the
     * factory gets the clock's reading to start from and must return a new, empty queue each time
     * (for example {@code TimerQueues::quaternaryHeap}, or {@code start ->
     * TimerQueues.hashedWheel(start, 100_000, 4096)}). The tick, slots and layout settings are
     * then ignored.
     *
     * @param factory makes the timer's queue
     * @return this builder
     */
    public TimerBuilder queue(LongFunction<? extends TimerQueue<?>> factory) {
        this.queueFactory = Objects.requireNonNull(factory, "factory");
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
     * @throws IllegalArgumentException if the thread factory or the queue factory returns null
     */
    public Timer startTimerThread() {
        return TimerThread.start(settings());
    }

    /**
     * Builds a timer for a loop of your own (an event loop, for example {@code
     * dev.hourglass.loop.EventLoop}): the loop binds its thread and runs the driver's turns.
     *
     * @param waker wakes the loop from its sleep; called from any thread, and it must reach the loop
     *     even if it comes just before the loop starts to wait (as {@code Selector.wakeup()} and
     *     {@code LockSupport.unpark} do)
     * @return the driver, not bound to a thread yet
     * @throws IllegalArgumentException if the queue factory returns null or a queue in use
     */
    public TimerDriver buildDriver(Runnable waker) {
        return new TimerDriver(settings(), Objects.requireNonNull(waker, "waker"));
    }

    TimerSettings settings() {
        return new TimerSettings(
                structure,
                tickNanos,
                slots,
                layout,
                queueFactory,
                clock,
                executor,
                threadFactory,
                maxPending,
                exceptionHandler);
    }
}
