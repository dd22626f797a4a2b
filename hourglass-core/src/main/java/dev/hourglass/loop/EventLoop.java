package dev.hourglass.loop;

import dev.hourglass.time.NanoClock;
import dev.hourglass.timer.Timeout;
import dev.hourglass.timer.Timer;
import dev.hourglass.timer.TimerBuilder;
import dev.hourglass.timer.TimerDriver;
import dev.hourglass.timer.TimerStats;
import dev.hourglass.timer.TimerTask;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An I/O event loop that is also a {@link Timer}: a small reactor over a {@link Selector} whose one
 * thread handles ready channels and expires timers. Each turn selects with a timeout equal to the
 * time left until the nearest deadline (no wait when one is due, no timeout when there is none),
 * handles the ready keys, runs the tasks handed over by {@link #execute}, then runs the due timers.
 * Made by {@link #open(TimerBuilder)}; its timers are a {@link TimerDriver} that the loop drives.
 *
 * <pre>{@code
 * EventLoop loop = EventLoop.open(Timers.builder());
 * ServerSocketChannel server = ServerSocketChannel.open().bind(new InetSocketAddress(8080));
 * loop.register(server, SelectionKey.OP_ACCEPT, key -> {
 *     SocketChannel client = server.accept();
 *     Timeout idle = loop.schedule(() -> close(client), Duration.ofSeconds(30));
 *     loop.register(client, SelectionKey.OP_READ, k -> {
 *         read(client);
 *         idle.reschedule(Duration.ofSeconds(30));
 *     });
 * });
 * loop.start();
 * }</pre>
 *
 * <p>Threads: handlers, executed tasks and timer tasks (unless the builder set an executor) all run
 * on the loop thread, so they share state without locks. A timer scheduled there goes straight into
 * the queue; other threads hand theirs over through a lock-free inbox and wake the selector only
 * when the new deadline is earlier than the one it waits for, or, while it waits longer than a
 * nap, about once per 8,192 messages. Under a clock that does not {@linkplain
 * dev.hourglass.time.NanoClock#flows() flow}, such as a {@link dev.hourglass.time.ManualNanoClock},
 * it waits for the clock's jumps instead of for real time.
 *
 * <p>Failures: an exception from a handler closes that handler's channel and is logged (logger
 * {@code dev.hourglass.loop}, level WARNING), as is one from an executed task; a timer task's goes
 * to the builder's exception handler. None stops the loop. If the selector itself fails, the loop
 * closes and {@link #run()} throws.
 *
 * <p>Complexity: a turn costs one select, O(1) per ready key and per executed task besides their own
 * work, and the structure's cost per timer.
 *
 * <p>Ordering: within a turn, ready keys in the selector's order, then executed tasks in the order
 * they were handed over, then due timers in the structure's order.
 *
 * <p>Thread-safety: the {@link Timer} methods, {@link #execute} and {@link #close()} are safe from
 * any thread; {@link #register} is for the loop thread, or for the thread that sets the loop up
 * before starting it.
 */
public final class EventLoop implements Timer, Executor {

    private final Selection selection;
    private final TimerDriver timers;
    private final NanoClock clock;
    private final AtomicBoolean started = new AtomicBoolean();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final Runnable wake;
    private final LoopTasks tasks;

    private volatile Thread owner;

    private EventLoop(TimerBuilder builder, Selector selector) {
        this.timers = builder.buildDriver(selector::wakeup);
        timers.presentAs(this);
        this.clock = timers.clock();
        this.selection = new Selection(selector, clock);
        this.wake = selection::wakeup;
        this.tasks = new LoopTasks(timers::isClosed);
    }

    /**
     * Opens an event loop with the builder's timer settings: a selector whose one thread handles
     * I/O and drives the timers. It does not run until {@link #start()} or {@link #run()}, so
     * channels can be registered first.
     *
     * @param builder the timer settings (structure, clock, executor, thread factory, ...)
     * @return the loop, not running yet
     * @throws UncheckedIOException if the selector cannot be opened
     */
    public static EventLoop open(TimerBuilder builder) {
        Objects.requireNonNull(builder, "builder");
        Selector selector;
        try {
            selector = Selector.open();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a selector", e);
        }
        return new EventLoop(builder, selector);
    }

    // ---- the Timer, driven by this loop ----

    @Override
    public Timeout schedule(Runnable task, long delay, TimeUnit unit) {
        return timers.schedule(task, delay, unit);
    }

    @Override
    public Timeout schedule(TimerTask task, long delay, TimeUnit unit) {
        return timers.schedule(task, delay, unit);
    }

    @Override
    public Timeout scheduleAtFixedRate(Runnable task, long initialDelay, long period, TimeUnit unit) {
        return timers.scheduleAtFixedRate(task, initialDelay, period, unit);
    }

    @Override
    public Timeout scheduleWithFixedDelay(Runnable task, long initialDelay, long delay, TimeUnit unit) {
        return timers.scheduleWithFixedDelay(task, initialDelay, delay, unit);
    }

    @Override
    public Timeout scheduleAtFixedRate(TimerTask task, long initialDelay, long period, TimeUnit unit) {
        return timers.scheduleAtFixedRate(task, initialDelay, period, unit);
    }

    @Override
    public Timeout scheduleWithFixedDelay(TimerTask task, long initialDelay, long delay, TimeUnit unit) {
        return timers.scheduleWithFixedDelay(task, initialDelay, delay, unit);
    }

    @Override
    public NanoClock clock() {
        return clock;
    }

    @Override
    public TimerStats stats() {
        return timers.stats();
    }

    @Override
    public boolean isClosed() {
        return timers.isClosed();
    }

    /** What a channel's readiness calls, on the loop thread. */
    @FunctionalInterface
    public interface IoHandler {
        /**
         * Handles a ready channel; the key carries this handler as its attachment, and attaching
         * another {@code IoHandler} to the key switches handlers.
         *
         * @param key the ready key: see {@link SelectionKey#readyOps()}
         * @throws IOException to have the loop close the channel and log the error; any other
         *     exception does the same
         */
        void ready(SelectionKey key) throws IOException;
    }

    /**
     * Registers a channel, made non-blocking here, for the {@code ops} it is interested in; the loop
     * calls {@code handler} when one is ready. Registering a channel again replaces its interest
     * and handler. Change the interest later through the returned key, on the loop thread.
     *
     * <p>Call it on the loop thread (from a handler, task or timer), or before {@link #start()} or
     * {@link #run()} on the thread that then starts the loop. Other threads use {@code
     * loop.execute(() -> loop.register(...))}. On the loop thread it works until the loop has
     * stopped, so a channel accepted while the loop is closing is registered and then closed with
     * the others instead of leaking.
     *
     * @param channel the channel, not null
     * @param ops a set of {@link SelectionKey} operations the channel supports
     * @param handler called on the loop thread when the channel is ready, not null
     * @return the channel's key with this loop's selector
     * @throws NullPointerException if {@code channel} or {@code handler} is null
     * @throws IllegalArgumentException if {@code ops} holds an operation the channel does not
     *     support
     * @throws IllegalStateException if the loop has stopped, or if this is not the loop thread and
     *     the loop runs or is closed
     * @throws IOException if the channel is closed or cannot be made non-blocking
     */
    public SelectionKey register(SelectableChannel channel, int ops, IoHandler handler) throws IOException {
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(handler, "handler");
        if ((ops & ~channel.validOps()) != 0) {
            throw new IllegalArgumentException(
                    "ops " + ops + " not supported by " + channel + ", whose valid ops are " + channel.validOps());
        }
        if (Thread.currentThread() != owner) {
            if (timers.isClosed()) {
                throw new IllegalStateException("event loop is closed");
            }
            if (started.get()) {
                throw new IllegalStateException(
                        "register called on " + Thread.currentThread().getName()
                                + " while the loop runs on another thread: use execute(() -> register(...))");
            }
        }
        return selection.register(channel, ops, handler);
    }

    /**
     * Runs {@code task} on the loop thread in its next turn, after the ready keys and before the
     * timers; tasks run in the order they were handed over. Tasks accepted before {@link #close()}
     * still run as the loop stops. An exception from a task is logged and the loop goes on.
     *
     * @param task what to run, not null
     * @throws NullPointerException if {@code task} is null
     * @throws RejectedExecutionException if the loop is closed
     */
    @Override
    public void execute(Runnable task) {
        Objects.requireNonNull(task, "task");
        tasks.add(task);
        // Unconditional: a wake-up of a selector that is not selecting just skips its next wait.
        selection.wakeup();
    }

    /**
     * Runs the loop on the calling thread, which becomes the loop thread, until {@link #stop()} or
     * {@link #close()}. The loop clears interrupts of its thread instead of stopping: stop it with
     * {@link #close()}.
     *
     * @throws IllegalStateException if the loop was already started or closed
     * @throws UncheckedIOException if the selector fails; the loop is closed by then
     */
    public void run() {
        claim();
        loop();
    }

    /**
     * Runs the loop on a new thread from the builder's thread factory and returns at once.
     *
     * @throws IllegalStateException if the loop was already started or closed
     * @throws IllegalArgumentException if the thread factory returns null
     */
    public void start() {
        Thread thread = timers.newThread(this::loop);
        claim();
        thread.start();
    }

    /**
     * Stops the loop, closes every channel registered with it and its selector, and returns the
     * timeouts that never ran; tasks already accepted by {@link #execute} run first. Waits until the
     * loop has stopped. Called on the loop thread (from a handler, task or timer), it returns an
     * empty list and the loop stops at the end of its current turn. Called on a loop that never
     * started, it does the stopping on the calling thread. A second call returns an empty list.
     *
     * @return the timeouts that never ran, in no particular order
     */
    @Override
    public List<Timeout> stop() {
        if (!timers.beginClose()) {
            return List.of();
        }
        if (started.compareAndSet(false, true)) {
            // Nobody will run the loop: run its last step here.
            loop();
            return timers.awaitStopped();
        }
        if (Thread.currentThread() == owner) {
            return List.of();
        }
        // Stopping must not give up half-way, so an interrupt is remembered rather than obeyed.
        boolean interrupted = false;
        while (true) {
            try {
                stopped.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return timers.awaitStopped();
    }

    private void claim() {
        if (!started.compareAndSet(false, true)) {
            throw new IllegalStateException(timers.isClosed() ? "event loop is closed" : "event loop already started");
        }
    }

    private void loop() {
        owner = Thread.currentThread();
        timers.bind();
        clock.addJumpListener(wake);
        try {
            while (!timers.isClosed()) {
                selection.select(timers);
                tasks.runBatch();
                timers.turn();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("the selector of " + this + " failed", e);
        } finally {
            // Whatever ended the loop, schedule and execute must now refuse.
            timers.beginClose();
            clock.removeJumpListener(wake);
            stopLoop();
        }
    }

    private void stopLoop() {
        try {
            tasks.runBatch();
            timers.shutdown();
            selection.closeAll();
        } finally {
            stopped.countDown();
        }
    }

    @Override
    public String toString() {
        Thread thread = owner;
        return "EventLoop[" + (thread == null ? "not started" : thread.getName()) + ", " + timers + "]";
    }
}
