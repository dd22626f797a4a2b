package dev.hourglass.timer;

import dev.hourglass.queue.TimerQueue;
import dev.hourglass.time.NanoClock;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * A {@link Timer} driven by a loop of your own: the thread-safe face ({@link Timer}) on one side,
 * and on the other the few calls a loop makes on its thread: {@link #bind()} once, then {@link
 * #turn()}, and between turns {@link #prepareToSleep} before it waits until {@link #nextDeadline()}
 * (or a wake-up), {@link #awake()} after; {@link #shutdown()} when it ends. The timer thread ({@link
 * TimerBuilder#startTimerThread()}) and the event loop ({@code dev.hourglass.loop.EventLoop}) are
 * such loops. Made by {@link TimerBuilder#buildDriver(Runnable)}.
 *
 * <p>Hand-off: other threads push timeouts onto a wait-free intake that the loop takes whole each
 * turn; calls made on the loop's thread apply to the queue directly. The loop is woken (the
 * runnable given to the builder) only when a new deadline is earlier than the one it sleeps
 * towards, when it sleeps with nothing to wait for, or, while it sleeps longer than a nap, picked at
 * random, for about one in {@link #WAKE_EVERY} other messages, so that cancellations never pile up
 * until a far deadline.
 *
 * <p>Naps: a message that can wait a nap of 1 ms (a cancel, or a schedule or an earlier move at
 * least that far from its deadline; a later move sends none) does not make the loop turn again;
 * the loop may sleep with it on the intake until a nap after its previous turn's clock reading, so
 * that a busy caller's messages are taken in batches. A sooner message makes the loop turn again.
 * So a timeout's deadline does not pass while it waits on the intake, unless the thread handing
 * it over was held up between reading the clock and pushing (then it may be late by less than that
 * thread was held up), or the loop rounds its sleep up (the event loop's select counts whole
 * milliseconds, so there, as for the timeouts in its queue, by less than 1 ms). Naps need a clock
 * that flows: under one that does not (a manual clock) a nap would last until the clock jumps, so
 * the loop takes every message at once, as it did before naps.
 *
 * <p>Complexity: a schedule is one exchange and one striped count on the caller's thread; the
 * loop's work is the queue's.
 *
 * <p>Ordering: due timeouts run in the queue's order.
 *
 * <p>Thread-safety: the {@link Timer} methods are safe from any thread; the loop's methods are for
 * the bound thread.
 */
public final class TimerDriver extends Handoff implements Timer {

    /** About one message in this many wakes a loop that sleeps longer than a nap; a power of two. */
    public static final int WAKE_EVERY = 8192;

    /**
     * How long a message from another thread may wait on the intake: a cancel, or a schedule or
     * an earlier move at least this far from its deadline, which the loop takes in at a turn at
     * most this long after its previous turn's clock reading, so that a busy caller's messages
     * come in batches instead of one turn each. Sooner ones are urgent: see {@link #isUrgent}.
     */
    static final long NAP_NANOS = 1_000_000;

    /** True if a message {@code delayNanos} from its deadline cannot wait a nap. */
    static boolean isUrgent(long delayNanos) {
        return delayNanos < NAP_NANOS;
    }

    private final NanoClock clock;
    private final TimerQueue<?> queue;
    private final boolean linked;
    private final Engine engine;
    private final Counters counters;
    private final Intake intake = new Intake();
    private final SleepGate gate;
    private final LastLook lastLook;
    private final long maxPending;
    private final ThreadFactory threadFactory;
    private final Stopping stopping = new Stopping();
    private final TaskKind.Cache kinds = new TaskKind.Cache();

    private volatile Thread owner;

    /**
     * A nap after the loop's clock reading before its last take of the intake: messages that can
     * wait are taken in by then. The loop's thread only.
     */
    private long napEnd;

    /** Whether the loop naps: only under a clock that flows, see the class comment. */
    private final boolean naps;

    /** What {@link Timeout#timer()} returns: this, or the loop that wraps it. */
    private volatile Timer face = this;

    TimerDriver(TimerSettings settings, Runnable waker) {
        this.clock = settings.clock;
        Filing filing = Filing.of(settings.newQueue());
        this.queue = filing.queue();
        this.linked = filing instanceof NodeFiling;
        this.engine = new Engine(clock, filing, settings.executor, settings.exceptionHandler);
        this.counters = engine.counters;
        this.gate = new SleepGate(waker);
        this.lastLook = new LastLook(intake, engine);
        this.maxPending = settings.maxPending;
        this.threadFactory = settings.threadFactory;
        startNap();
        this.naps = clock.flows();
    }

    // ---- the Timer ----

    @Override
    public Timeout schedule(Runnable task, long delay, TimeUnit unit) {
        return start(task, Delays.nanos(delay, unit, "delay"), 0);
    }

    @Override
    public Timeout schedule(TimerTask task, long delay, TimeUnit unit) {
        return start(task, Delays.nanos(delay, unit, "delay"), 0);
    }

    @Override
    public Timeout scheduleAtFixedRate(Runnable task, long initialDelay, long period, TimeUnit unit) {
        long initial = Delays.nanos(initialDelay, unit, "initialDelay");
        return start(task, initial, Delays.period(period, unit, "period"));
    }

    @Override
    public Timeout scheduleWithFixedDelay(Runnable task, long initialDelay, long delay, TimeUnit unit) {
        long initial = Delays.nanos(initialDelay, unit, "initialDelay");
        return start(task, initial, -Delays.period(delay, unit, "delay"));
    }

    @Override
    public Timeout scheduleAtFixedRate(TimerTask task, long initialDelay, long period, TimeUnit unit) {
        long initial = Delays.nanos(initialDelay, unit, "initialDelay");
        return start(task, initial, Delays.period(period, unit, "period"));
    }

    @Override
    public Timeout scheduleWithFixedDelay(TimerTask task, long initialDelay, long delay, TimeUnit unit) {
        long initial = Delays.nanos(initialDelay, unit, "initialDelay");
        return start(task, initial, -Delays.period(delay, unit, "delay"));
    }

    private Timeout start(Object task, long delayNanos, long period) {
        Objects.requireNonNull(task, "task");
        if (stopping.isClosed()) {
            throw new IllegalStateException("timer is closed");
        }
        // Without a limit nothing is summed; with one, threads scheduling at the same moment may
        // pass it together, and a cancel counts once the driver has taken it in.
        if (maxPending != Long.MAX_VALUE && counters.pending() >= maxPending) {
            counters.rejected();
            throw new RejectedExecutionException("pending limit of " + maxPending + " timeouts reached");
        }
        long deadline = clock.nanoTime() + delayNanos;
        boolean direct = onDriverThread();
        int state = direct ? TimeoutNode.PENDING : TimeoutNode.PENDING | TimeoutNode.QUEUED;
        // Decided now, while the task is in cache: the driver then never tests what it is.
        TaskKind kind = kinds.of(task);
        TimeoutNode node;
        if (period != 0 || !linked) {
            node = new WideTimeoutNode(this, queue, task, deadline, state, period, kind);
        } else {
            switch (kind) {
                case RUNNABLE:
                    node = new TimeoutNode(this, queue, task, deadline, state);
                    break;
                case TIMER_TASK:
                    node = new TaskTimeoutNode(this, queue, task, deadline, state);
                    break;
                default:
                    node = new NotifyingTimeoutNode(this, queue, task, deadline, state);
            }
        }
        counters.scheduled();
        if (direct && delayNanos <= 0) {
            // From a task of this turn: the clock has moved past the turn's time, so the engine
            // would file the node in the structure and it would wait for the next tick.
            engine.dueNow(node);
            return node;
        }
        if (!handOver(node, true, isUrgent(delayNanos))) {
            throw new IllegalStateException("timer is closed");
        }
        return node;
    }

    @Override
    public boolean onDriverThread() {
        return Thread.currentThread() == owner;
    }

    @Override
    boolean handOver(TimeoutNode node, boolean wake, boolean urgent) {
        if (onDriverThread()) {
            engine.apply(node);
            return true;
        }
        intake.push(node);
        gate.pushed(node.deadlineNow(), wake, urgent);
        if (stopping.isTerminated()) {
            // The loop is taking or has taken its last look at the intake: a timeout still pending
            // is cancelled here; a cancel is counted by the last look or by a later hand-off's.
            if (engine.cancelForClose(node, null, true)) {
                return false;
            }
            lastLook.takeByHandOff();
        }
        return true;
    }

    @Override
    void hurry(TimeoutNode node) {
        gate.pushed(node.deadlineNow(), true, true);
    }

    @Override
    public long nanoTime() {
        return clock.nanoTime();
    }

    @Override
    public Timer timer() {
        return face;
    }

    /**
     * Makes {@link Timeout#timer()} of this driver's timeouts return {@code face}: the object users
     * hold when a loop wraps this driver (as the event loop does). Call it before scheduling.
     *
     * @param face the timer users see
     */
    public void presentAs(Timer face) {
        this.face = Objects.requireNonNull(face, "face");
    }

    @Override
    public NanoClock clock() {
        return clock;
    }

    @Override
    public TimerStats stats() {
        return counters.snapshot();
    }

    @Override
    public boolean isClosed() {
        return stopping.isClosed();
    }

    @Override
    public List<Timeout> stop() {
        if (!beginClose()) {
            return List.of();
        }
        if (owner == null && bind()) {
            // No loop ever ran it: stop here.
            shutdown();
            return awaitStopped();
        }
        if (onDriverThread()) {
            // A task cannot wait for the thread it runs on: the loop stops after this turn.
            return List.of();
        }
        return awaitStopped();
    }

    /**
     * Waits until the loop has run {@link #shutdown()}, then returns the timeouts that never ran.
     * An interrupt is remembered and restored rather than obeyed: stopping does not give up
     * half-way.
     *
     * @return the timeouts that never ran
     */
    public List<Timeout> awaitStopped() {
        return stopping.await();
    }

    /**
     * Marks the timer closed and wakes its loop; from then on schedules are refused.
     *
     * @return false if it was closed already
     */
    public boolean beginClose() {
        if (!stopping.close()) {
            return false;
        }
        engine.closing = true;
        gate.wake();
        return true;
    }

    // ---- the loop's side ----

    /**
     * Makes the calling thread the one that drives this timer.
     *
     * @return false if another thread (or this one) was bound already
     */
    public synchronized boolean bind() {
        if (owner != null) {
            return false;
        }
        owner = Thread.currentThread();
        return true;
    }

    /**
     * Makes a thread with the builder's thread factory, for a loop that will drive this timer.
     *
     * @param loop what the thread runs
     * @return the thread, not started
     * @throws IllegalArgumentException if the factory returns null
     */
    public Thread newThread(Runnable loop) {
        Thread thread = threadFactory.newThread(loop);
        if (thread == null) {
            throw new IllegalArgumentException("threadFactory returned null");
        }
        return thread;
    }

    /** Runs one turn on the bound thread: fires what is due, takes in what other threads handed over. */
    public void turn() {
        startNap();
        gate.taking();
        engine.turn(intake.takeAll());
    }

    /**
     * Starts a nap from the last turn's reading, earlier than the take that follows: a message that
     * stays on the intake was made later, with a deadline at least a nap after its own reading.
     */
    private void startNap() {
        napEnd = engine.time() + NAP_NANOS;
    }

    /**
     * Tells whether any timeout waits.
     *
     * @return true if the loop has a deadline to sleep towards
     */
    public boolean hasTimers() {
        return engine.hasTimers();
    }

    /**
     * Returns when the loop must turn next: at or before now if a timeout is due already, else at
     * or before the next deadline (a hierarchical wheel answers with its next cascade when that
     * comes first and the cascading slot holds many timers, which spares it a scan of them), and
     * no later than the end of the nap while messages wait on the intake.
     *
     * @return the time of the next turn in nanoseconds; call only when {@link #hasTimers()}
     */
    public long nextDeadline() {
        long next = engine.nextDeadline();
        if (!naps || intake.isEmpty()) {
            return next;
        }
        return next - napEnd < 0 ? next : napEnd;
    }

    /**
     * Announces that the loop is about to sleep until {@code deadline} (or without end when {@code
     * idle}); a later wake-up call reaches it even if it comes before the loop actually waits.
     *
     * @param idle true if no timeout waits
     * @param deadline the deadline slept towards, when not idle
     * @return false if the loop must not sleep, because a close or an urgent message arrived
     *     meanwhile, or messages wait and {@code deadline} is later than their nap allows; when
     *     true, the loop must not sleep past {@code deadline}, as messages may wait
     */
    public boolean prepareToSleep(boolean idle, long deadline) {
        boolean mayNap = naps && deadline - napEnd <= 0;
        return gate.prepare(idle, deadline, intake, stopping.isClosed(), mayNap);
    }

    /** Tells the driver that the loop woke up. */
    public void awake() {
        gate.awake();
    }

    /**
     * Stops, on the bound thread when its loop ends (also when it died of an error): closes the
     * timer, cancels every timeout left and keeps them for {@link #stop()}.
     */
    public void shutdown() {
        stopping.close();
        engine.closing = true;
        List<Timeout> left = engine.shutdown(intake.takeAll());
        stopping.terminate();
        // Anything pushed after the first look: scheduled while closing, a periodic run on an
        // executor that ended meanwhile, or a user's cancel that won before the close reached the
        // timeout. From now on a hand-off cancels its own pending timeout, and counts the cancels
        // it finds on the intake.
        lastLook.takeByLoop(left);
        stopping.stopped(left);
    }

    @Override
    public String toString() {
        Thread thread = owner;
        return "Timer[" + (thread == null ? "not started" : thread.getName()) + ", " + queue + "]";
    }
}
