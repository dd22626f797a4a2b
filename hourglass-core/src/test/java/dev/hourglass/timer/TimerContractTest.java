package dev.hourglass.timer;

import static java.util.concurrent.TimeUnit.DAYS;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.NANOSECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hourglass.queue.TimerStructure;
import dev.hourglass.time.ManualNanoClock;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The semantics every {@link Timer} driver keeps ({@link Timer}, {@link Timeout}), checked under a
 * {@link ManualNanoClock} without sleeping: a test moves the clock and then awaits an effect. To
 * show that something has <em>not</em> happened it uses a barrier: a zero-delay probe scheduled
 * after the clock moved runs only once the driver has handled everything due at the clock's time.
 *
 * <p>A subclass starts its driver from a builder that already holds the structure, the clock, a 1 ms
 * tick, a recording thread factory and exception handler; every test runs on several structures.
 * The clock starts two seconds before {@code Long.MAX_VALUE}, so longer tests wrap past it.
 */
@org.junit.jupiter.api.Timeout(120)
abstract class TimerContractTest {

    static final long TICK = 1_000_000;
    static final long START = Long.MAX_VALUE - 2_000_000_000L;

    /** A safety net for awaits: a driver that works answers in microseconds. */
    static final long AWAIT_SECONDS = 10;

    /** Runs a test on an exact structure and on each kind of wheel. */
    @Target(ElementType.METHOD)
    @Retention(RetentionPolicy.RUNTIME)
    @ParameterizedTest(name = "{0}")
    @EnumSource(
            value = TimerStructure.class,
            names = {"BINARY_HEAP", "HIERARCHICAL_WHEEL", "HASHED_WHEEL", "SIMPLE_WHEEL", "SORTED_HASHED_WHEEL"})
    @interface EachStructure {}

    /** Starts the driver under test; the builder is configured already. */
    abstract Timer newTimer(TimerBuilder builder);

    final ManualNanoClock clock = new ManualNanoClock(START);
    final Set<Thread> driverThreads = ConcurrentHashMap.newKeySet();
    final List<Handled> handled = new CopyOnWriteArrayList<>();
    private final Semaphore handledSignal = new Semaphore(0);
    private final List<Timer> timers = new ArrayList<>();
    private final List<ExecutorService> pools = new ArrayList<>();
    private TimerStructure structure;
    Timer timer;

    /** One call of the exception handler. */
    static final class Handled {
        final Timeout timeout;
        final Throwable error;

        Handled(Timeout timeout, Throwable error) {
            this.timeout = timeout;
            this.error = error;
        }
    }

    Timer start(TimerStructure structure) {
        return start(structure, builder -> {});
    }

    Timer start(TimerStructure structure, Consumer<TimerBuilder> configure) {
        this.structure = structure;
        TimerBuilder builder = Timers.builder()
                .structure(structure)
                .clock(clock)
                .tick(Duration.ofNanos(TICK))
                .threadFactory(task -> {
                    Thread thread = new Thread(task, "contract-driver");
                    thread.setDaemon(true);
                    driverThreads.add(thread);
                    return thread;
                })
                .exceptionHandler((timeout, error) -> {
                    handled.add(new Handled(timeout, error));
                    handledSignal.release();
                });
        configure.accept(builder);
        timer = newTimer(builder);
        timers.add(timer);
        return timer;
    }

    @AfterEach
    void closeEverything() {
        timers.forEach(Timer::close);
        pools.forEach(ExecutorService::shutdownNow);
    }

    // ---- time ----

    static long at(long offset) {
        return START + offset;
    }

    /** When the structure delivers a deadline: exactly, or at the next tick boundary of a wheel. */
    long due(long deadline) {
        if (structure.isExact()) {
            return deadline;
        }
        return START + Math.floorDiv(deadline - START + TICK - 1, TICK) * TICK;
    }

    void advanceTo(long time) {
        long step = time - clock.nanoTime();
        assertThat(step).as("a test moves the clock forward only").isNotNegative();
        clock.advance(step);
    }

    /** Returns once the driver has run everything due at the clock's current time. */
    void barrier() throws InterruptedException {
        CountDownLatch probe = new CountDownLatch(1);
        timer.schedule(probe::countDown, Duration.ZERO);
        await(probe, "the barrier probe");
    }

    static void await(CountDownLatch latch, String what) throws InterruptedException {
        assertThat(latch.await(AWAIT_SECONDS, SECONDS))
                .as(what + " within " + AWAIT_SECONDS + " s")
                .isTrue();
    }

    void awaitHandled(int calls) throws InterruptedException {
        assertThat(handledSignal.tryAcquire(calls, AWAIT_SECONDS, SECONDS))
                .as(calls + " more exception handler calls")
                .isTrue();
    }

    /**
     * Waits until the stats satisfy {@code condition}: the driver counts cancellations when it
     * takes them in, so the clock is nudged (by 0 ns) to wake it for a turn.
     */
    void awaitStats(java.util.function.Predicate<TimerStats> condition, String what) {
        for (long end = System.nanoTime() + SECONDS.toNanos(AWAIT_SECONDS); !condition.test(timer.stats()); ) {
            assertThat(System.nanoTime() - end).as(what + "; " + timer.stats()).isNegative();
            clock.advance(0);
            java.util.concurrent.locks.LockSupport.parkNanos(100_000);
        }
    }

    void awaitDriverStopped() throws InterruptedException {
        for (Thread thread : driverThreads) {
            thread.join(SECONDS.toMillis(AWAIT_SECONDS));
            assertThat(thread.isAlive()).as("driver thread still running").isFalse();
        }
    }

    ExecutorService pool(String name) {
        AtomicInteger count = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(2, task -> {
            Thread thread = new Thread(task, name + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        pools.add(pool);
        return pool;
    }

    /** A task that records when (on the manual clock) and where it ran. */
    final class Probe implements Runnable {
        final List<Long> times = new CopyOnWriteArrayList<>();
        final List<Thread> threads = new CopyOnWriteArrayList<>();
        private final Semaphore ran = new Semaphore(0);
        private final AtomicInteger running = new AtomicInteger();
        final AtomicInteger maxConcurrent = new AtomicInteger();
        volatile Runnable body = () -> {};

        @Override
        public void run() {
            maxConcurrent.accumulateAndGet(running.incrementAndGet(), Math::max);
            times.add(clock.nanoTime());
            threads.add(Thread.currentThread());
            try {
                body.run();
            } finally {
                running.decrementAndGet();
                ran.release();
            }
        }

        int runs() {
            return times.size();
        }

        /** Waits for {@code count} more runs to end. */
        void awaitRuns(int count) throws InterruptedException {
            assertThat(ran.tryAcquire(count, AWAIT_SECONDS, SECONDS))
                    .as(count + " more runs; ran at " + times)
                    .isTrue();
        }
    }

    /** An executor that only queues; the test runs what it was handed, when it chooses. */
    static final class ManualExecutor implements Executor {
        private final BlockingQueue<Runnable> handed = new LinkedBlockingQueue<>();

        @Override
        public void execute(Runnable command) {
            handed.add(command);
        }

        Runnable take() throws InterruptedException {
            Runnable next = handed.poll(AWAIT_SECONDS, SECONDS);
            assertThat(next).as("a run handed to the executor").isNotNull();
            return next;
        }

        boolean isEmpty() {
            return handed.isEmpty();
        }
    }

    /** The barrier for a timer on a manual executor: the next run handed over is the probe's. */
    void barrier(ManualExecutor executor) throws InterruptedException {
        Probe probe = new Probe();
        timer.schedule(probe, Duration.ZERO);
        executor.take().run();
        assertThat(probe.runs())
                .as("the first run handed over after the clock moved")
                .isOne();
    }

    // ---- one-shot timeouts ----

    @EachStructure
    void runsAtItsDeadlineAndNeverBefore(TimerStructure structure) throws InterruptedException {
        start(structure);
        Probe probe = new Probe();
        long delay = 10 * TICK + 123;
        Timeout timeout = timer.schedule(probe, delay, NANOSECONDS);
        long deadline = at(delay);
        assertThat(timeout.remaining(NANOSECONDS)).isEqualTo(delay);
        assertThat(timeout.isPeriodic()).isFalse();
        assertThat(timeout.task()).isSameAs(probe);

        advanceTo(deadline - 1);
        barrier();
        assertThat(probe.runs()).isZero();
        advanceTo(due(deadline) - 1);
        barrier();
        assertThat(probe.runs()).isZero();
        assertThat(timeout.isExpired()).isFalse();

        advanceTo(due(deadline));
        probe.awaitRuns(1);
        assertThat(probe.times).containsExactly(due(deadline));
        assertThat(probe.threads).allMatch(driverThreads::contains);
        assertThat(timeout.isExpired()).isTrue();
        assertThat(timeout.isCancelled()).isFalse();
        assertThat(timeout.remaining(NANOSECONDS)).isNotPositive();
    }

    @EachStructure
    void zeroDelayRunsAtTheNextTurnEvenBetweenTicks(TimerStructure structure) throws InterruptedException {
        start(structure);
        advanceTo(at(TICK / 2 + 1));
        Probe probe = new Probe();
        timer.schedule(probe, Duration.ZERO);
        probe.awaitRuns(1);
        assertThat(probe.times).containsExactly(at(TICK / 2 + 1));
    }

    @EachStructure
    void timeoutsDueWhenTakenInRunInTheOrderTheyWereHandedOver(TimerStructure structure) throws InterruptedException {
        start(structure);
        advanceTo(at(5 * TICK));
        List<String> order = new CopyOnWriteArrayList<>();
        CountDownLatch done = new CountDownLatch(3);
        Probe scheduler = new Probe();
        scheduler.body = () -> {
            // Overdue by different amounts: the earliest deadline is handed over second.
            timer.schedule(() -> ran(order, "a", done), Duration.ZERO);
            timer.schedule(() -> ran(order, "b", done), -4 * TICK, NANOSECONDS);
            timer.schedule(() -> ran(order, "c", done), -TICK, NANOSECONDS);
        };
        timer.schedule(scheduler, Duration.ZERO);
        await(done, "the three timeouts");
        assertThat(order).containsExactly("a", "b", "c");
    }

    private static void ran(List<String> order, String name, CountDownLatch done) {
        order.add(name);
        done.countDown();
    }

    @EachStructure
    void oneShotRunsOnce(TimerStructure structure) throws InterruptedException {
        start(structure);
        Probe probe = new Probe();
        timer.schedule(probe, Duration.ofMillis(3));
        advanceTo(at(3 * TICK));
        probe.awaitRuns(1);
        for (int i = 1; i <= 3; i++) {
            advanceTo(at(3 * TICK + i * 1000 * TICK));
            barrier();
        }
        assertThat(probe.runs()).isOne();
    }

    @EachStructure
    void cancelledTimeoutNeverRuns(TimerStructure structure) throws InterruptedException {
        start(structure);
        Probe probe = new Probe();
        Timeout early = timer.schedule(probe, 5, MILLISECONDS);
        assertThat(early.cancel()).isTrue();
        Timeout queued = timer.schedule(probe, 5, MILLISECONDS);
        barrier(); // the driver now holds it in its queue
        assertThat(queued.cancel()).isTrue();

        for (Timeout timeout : List.of(early, queued)) {
            assertThat(timeout.isCancelled()).isTrue();
            assertThat(timeout.cancel()).as("a second cancel").isFalse();
            assertThat(timeout.reschedule(Duration.ZERO)).isFalse();
            assertThat(timeout.remaining(NANOSECONDS)).isNotPositive();
        }
        advanceTo(at(100 * TICK));
        barrier();
        assertThat(probe.runs()).isZero();
        assertThat(early.isExpired()).isFalse();
        assertThat(timer.stats().cancelled()).isEqualTo(2);
    }

    @EachStructure
    void cancelAfterTheRunReturnsFalse(TimerStructure structure) throws InterruptedException {
        start(structure);
        Probe probe = new Probe();
        Timeout timeout = timer.schedule(probe, 2, MILLISECONDS);
        advanceTo(at(2 * TICK));
        probe.awaitRuns(1);
        assertThat(timeout.cancel()).isFalse();
        assertThat(timeout.isCancelled()).isFalse();
        assertThat(timeout.isExpired()).isTrue();
        assertThat(timer.stats().cancelled()).isZero();
    }

    /**
     * Issue 11, 5(b): after the clock jumps by {@code Long.MAX_VALUE} (and on before the driver's
     * next turn), the driver must go on running what is scheduled, also what a task schedules. A
     * jump of more than {@code Long.MAX_VALUE} between two turns used to stop the driver (the queue
     * refused a time that, compared by subtraction, lay in its past).
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(
            value = TimerStructure.class,
            names = {"SORTED_HASHED_WHEEL", "HASHED_WHEEL", "HIERARCHICAL_WHEEL", "SIMPLE_WHEEL", "BINARY_HEAP"})
    void aTaskSchedulingAfterAJumpOfLongMaxValueStillRunsWhatItScheduled(TimerStructure structure)
            throws InterruptedException {
        start(structure);
        Probe warm = new Probe();
        timer.schedule(warm, 1, MILLISECONDS);
        clock.advance(2 * TICK);
        warm.awaitRuns(1);
        clock.advance(Long.MAX_VALUE);
        Probe second = new Probe();
        Probe first = new Probe();
        first.body = () -> timer.schedule(second, 1, MILLISECONDS);
        timer.schedule(first, 1, MILLISECONDS);
        // Two ticks: a wheel runs it at the tick boundary after its deadline.
        clock.advance(2 * TICK);
        first.awaitRuns(1);
        barrier();
        assertThat(second.runs()).isZero();
        clock.advance(2 * TICK);
        second.awaitRuns(1);
        barrier();
    }

    // ---- the API of issue 11 ----

    @EachStructure
    void aDelayOfZeroOrLessRunsAtTheNextTurn(TimerStructure structure) throws InterruptedException {
        start(structure);
        advanceTo(at(TICK / 3));
        Probe probe = new Probe();
        timer.schedule(probe, Duration.ofSeconds(-1));
        timer.schedule(probe, -5, MILLISECONDS);
        timer.scheduleAtFixedRate(probe, -1, 1_000, SECONDS);
        probe.awaitRuns(3);
        assertThat(probe.times).containsOnly(at(TICK / 3));
        Timeout moved = timer.schedule(probe, 1, SECONDS);
        assertThat(moved.reschedule(-3, SECONDS)).isTrue();
        probe.awaitRuns(1);
    }

    @EachStructure
    void aTimerTaskGetsItsTimeoutAndHearsOfItsCancellationOnce(TimerStructure structure) throws InterruptedException {
        start(structure);
        assertThat(timer.clock()).isSameAs(clock);
        List<Timeout> ranWith = new CopyOnWriteArrayList<>();
        List<Thread> cancelledOn = new CopyOnWriteArrayList<>();
        CountDownLatch ran = new CountDownLatch(1);
        CountDownLatch cancelled = new CountDownLatch(1);
        TimerTask task = new TimerTask() {
            @Override
            public void run(Timeout timeout) {
                ranWith.add(timeout);
                ran.countDown();
            }

            @Override
            public void cancelled(Timeout timeout) {
                cancelledOn.add(Thread.currentThread());
                cancelled.countDown();
            }
        };
        Timeout runs = timer.schedule(task, 1, MILLISECONDS);
        Timeout cancels = timer.schedule(task, Duration.ofSeconds(5));
        assertThat(runs.timer()).isSameAs(timer);
        assertThat(cancels.task()).isSameAs(task);
        assertThat(cancels.cancel()).isTrue();
        assertThat(cancels.cancel()).isFalse();
        advanceTo(at(TICK));
        await(ran, "the task");
        await(cancelled, "the cancellation");
        barrier();
        assertThat(ranWith).containsExactly(runs);
        assertThat(cancelledOn).hasSize(1).allMatch(driverThreads::contains);
    }

    @EachStructure
    void theHandleIsNotARunnable(TimerStructure structure) throws InterruptedException {
        ManualExecutor executor = new ManualExecutor();
        start(structure, builder -> builder.executor(executor));
        Probe probe = new Probe();
        Timeout timeout = timer.schedule(probe, Duration.ZERO);
        assertThat(timeout).isNotInstanceOf(Runnable.class);
        Runnable handedOver = executor.take();
        assertThat(handedOver).isNotInstanceOf(Timeout.class);
        handedOver.run();
        assertThat(probe.runs()).isOne();
    }

    @EachStructure
    void closeFromATaskReturnsAtOnceAndTheDriverStopsAfterIt(TimerStructure structure) throws InterruptedException {
        start(structure);
        Probe never = new Probe();
        Timeout later = timer.schedule(never, 1, SECONDS);
        AtomicReference<Boolean> closedInside = new AtomicReference<>();
        Probe closer = new Probe();
        closer.body = () -> {
            try (Timer self = timer) {
                self.schedule(never, 2, SECONDS);
            }
            closedInside.set(timer.isClosed());
        };
        timer.schedule(closer, Duration.ZERO);
        closer.awaitRuns(1);
        awaitDriverStopped();
        assertThat(closedInside.get()).isTrue();
        assertThat(later.isCancelled()).isTrue();
        assertThat(never.runs()).isZero();
        assertThat(timer.stats().pending()).isZero();
        assertThat(timer.stop()).isEmpty();
    }

    @EachStructure
    void rescheduleLaterMovesTheRun(TimerStructure structure) throws InterruptedException {
        start(structure);
        Probe probe = new Probe();
        Timeout timeout = timer.schedule(probe, 10 * TICK, NANOSECONDS);
        barrier();
        assertThat(timeout.reschedule(20 * TICK, NANOSECONDS)).isTrue();
        assertThat(timeout.remaining(NANOSECONDS)).isEqualTo(20 * TICK);

        advanceTo(at(10 * TICK));
        barrier();
        assertThat(probe.runs()).isZero();
        advanceTo(at(20 * TICK) - 1);
        barrier();
        assertThat(probe.runs()).isZero();
        advanceTo(at(20 * TICK));
        probe.awaitRuns(1);
        assertThat(probe.times).containsExactly(at(20 * TICK));
    }

    @EachStructure
    void rescheduleEarlierWakesTheSleepingDriver(TimerStructure structure) throws InterruptedException {
        start(structure);
        Probe probe = new Probe();
        Timeout timeout = timer.schedule(probe, Duration.ofSeconds(60));
        advanceTo(at(3 * TICK + 7));
        barrier(); // the driver sleeps towards the far deadline again
        assertThat(timeout.reschedule(2 * TICK, NANOSECONDS)).isTrue();
        long deadline = at(5 * TICK + 7);
        advanceTo(deadline - 1);
        barrier();
        assertThat(probe.runs()).isZero();
        advanceTo(due(deadline));
        probe.awaitRuns(1);
        // Due at the deadline; a wheel may wait for the boundary unless it sees the deadline passed.
        assertThat(probe.times).singleElement().satisfies(t -> assertThat(t).isBetween(deadline, due(deadline)));

        // Without moving the clock: only the message can wake the driver.
        Probe now = new Probe();
        Timeout far = timer.schedule(now, Duration.ofSeconds(60));
        barrier();
        assertThat(far.reschedule(Duration.ZERO)).isTrue();
        now.awaitRuns(1);
        assertThat(now.times).containsExactly(clock.nanoTime());
    }

    @EachStructure
    void cancelledTimeoutsAreNotRetainedWhileTheDriverSleepsTowardsAFarDeadline(TimerStructure structure)
            throws InterruptedException {
        start(structure);
        timer.schedule(new Probe(), Duration.ofHours(1));
        barrier(); // the driver sleeps towards the far deadline; the clock never moves again
        // About one message in WAKE_EVERY, picked at random, wakes the driver: the ones after the
        // last such wake may stay, and 16 times the mean gap is passed once in e^16 runs.
        int count = 32 * TimerDriver.WAKE_EVERY;
        List<WeakReference<Runnable>> tasks = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            Runnable task = new Probe();
            tasks.add(new WeakReference<>(task));
            // Later than the far deadline and then cancelled: neither message wakes the driver.
            assertThat(timer.schedule(task, Duration.ofHours(2).plusNanos(i)).cancel())
                    .isTrue();
        }
        long collectable = count - 16 * TimerDriver.WAKE_EVERY;
        long cleared = 0;
        for (long end = System.nanoTime() + SECONDS.toNanos(AWAIT_SECONDS);
                cleared < collectable && System.nanoTime() - end < 0; ) {
            System.gc();
            cleared = tasks.stream().filter(ref -> ref.get() == null).count();
        }
        assertThat(cleared)
                .as("cancelled tasks no longer reachable, of %d", count)
                .isGreaterThanOrEqualTo(collectable);
    }

    @EachStructure
    void rescheduleOfAFiredOneShotReturnsFalse(TimerStructure structure) throws InterruptedException {
        start(structure);
        Probe probe = new Probe();
        Timeout timeout = timer.schedule(probe, 1, MILLISECONDS);
        advanceTo(at(TICK));
        probe.awaitRuns(1);
        assertThat(timeout.reschedule(Duration.ofMillis(5))).isFalse();
        assertThat(timeout.reschedule(0, SECONDS)).isFalse();
        advanceTo(at(100 * TICK));
        barrier();
        assertThat(probe.runs()).isOne();
        assertThat(timeout.isExpired()).isTrue();
    }

    @EachStructure
    void rescheduleAtMovesTheRunToTheReadingGivenPastTheClocksWrap(TimerStructure structure)
            throws InterruptedException {
        start(structure);
        Probe probe = new Probe();
        Timeout timeout = timer.schedule(probe, 10 * TICK, NANOSECONDS);
        barrier();
        // Later, to a reading beyond Long.MAX_VALUE: it wraps, as the clock's readings do.
        long later = at(2_500 * TICK + 3);
        assertThat(later).isNegative();
        assertThat(timeout.rescheduleAt(later)).isTrue();
        assertThat(timeout.remaining(NANOSECONDS)).isEqualTo(2_500 * TICK + 3);
        advanceTo(at(10 * TICK));
        barrier();
        advanceTo(later - 1);
        barrier();
        assertThat(probe.runs()).isZero();
        advanceTo(due(later));
        probe.awaitRuns(1);
        assertThat(probe.times).singleElement().satisfies(t -> assertThat(t).isBetween(later, due(later)));
        assertThat(timeout.rescheduleAt(later + TICK)).as("a fired one-shot").isFalse();

        // Earlier, from a far deadline to a near one: the driver takes the hand-off in (the test
        // below shows that the message alone wakes it).
        Probe near = new Probe();
        Timeout far = timer.schedule(near, Duration.ofSeconds(60));
        barrier();
        long soon = clock.nanoTime() + 2 * TICK + 5;
        assertThat(far.rescheduleAt(soon)).isTrue();
        advanceTo(soon - 1);
        barrier();
        assertThat(near.runs()).isZero();
        advanceTo(due(soon));
        near.awaitRuns(1);
        assertThat(near.times).singleElement().satisfies(t -> assertThat(t).isBetween(soon, due(soon)));
    }

    @EachStructure
    void rescheduleAtAReadingAlreadyPassedRunsNowAndACancelledTimeoutStays(TimerStructure structure)
            throws InterruptedException {
        start(structure);
        Probe probe = new Probe();
        Timeout timeout = timer.schedule(probe, Duration.ofSeconds(60));
        barrier();
        long reading = clock.nanoTime();
        advanceTo(reading + 3 * TICK);
        barrier();
        // Without moving the clock again: only the message can wake the driver.
        assertThat(timeout.rescheduleAt(reading + TICK)).isTrue();
        probe.awaitRuns(1);
        assertThat(probe.times).containsExactly(clock.nanoTime());

        Probe cancelled = new Probe();
        Timeout gone = timer.schedule(cancelled, Duration.ofSeconds(60));
        assertThat(gone.cancel()).isTrue();
        assertThat(gone.rescheduleAt(clock.nanoTime())).isFalse();
        advanceTo(clock.nanoTime() + 100 * TICK);
        barrier();
        assertThat(cancelled.runs()).isZero();
        assertThat(gone.isCancelled()).isTrue();
    }

    @EachStructure
    void rescheduleAtDuringAPeriodicRunMovesTheNextRun(TimerStructure structure) throws InterruptedException {
        start(structure);
        Probe probe = new Probe();
        AtomicReference<Timeout> self = new AtomicReference<>();
        List<Boolean> results = new CopyOnWriteArrayList<>();
        long moved = at(50 * TICK);
        probe.body = () -> {
            if (probe.runs() == 1) {
                results.add(self.get().rescheduleAt(moved));
            }
        };
        self.set(timer.scheduleAtFixedRate(probe, TICK, TICK, NANOSECONDS));
        advanceTo(at(TICK));
        probe.awaitRuns(1);
        advanceTo(moved - 1);
        barrier();
        assertThat(probe.runs())
                .as("no run between the first and the moved one")
                .isOne();
        advanceTo(due(moved));
        probe.awaitRuns(1);
        assertThat(probe.times.get(1)).isBetween(moved, due(moved));
        assertThat(results).containsExactly(true);
        self.get().cancel();
    }

    @EachStructure
    void remainingCountsDownAndStopsAtZeroWhenCancelled(TimerStructure structure) {
        start(structure);
        Timeout timeout = timer.schedule(() -> {}, 10 * TICK, NANOSECONDS);
        assertThat(timeout.remaining(MILLISECONDS)).isEqualTo(10);
        advanceTo(at(4 * TICK + 1));
        assertThat(timeout.remaining(NANOSECONDS)).isEqualTo(6 * TICK - 1);
        assertThat(timeout.remaining(MILLISECONDS)).isEqualTo(5);
        assertThat(timeout.cancel()).isTrue();
        assertThat(timeout.remaining(NANOSECONDS)).isNotPositive();
    }

    @EachStructure
    void runsInDeadlineOrderOrTickOrderAfterALongPause(TimerStructure structure) throws InterruptedException {
        start(structure);
        SplittableRandom random = new SplittableRandom(7);
        int count = 300;
        List<Long> ranDeadlines = new CopyOnWriteArrayList<>();
        List<Long> scheduled = new ArrayList<>();
        CountDownLatch all = new CountDownLatch(count);
        for (int i = 0; i < count; i++) {
            long delay = random.nextLong(50) * TICK / 2 + random.nextLong(3); // ties and in-tick offsets
            long deadline = at(delay);
            scheduled.add(deadline);
            timer.schedule(
                    () -> {
                        ranDeadlines.add(deadline);
                        all.countDown();
                    },
                    delay,
                    NANOSECONDS);
        }
        barrier(); // every timeout is in the queue before the jump
        advanceTo(at(30 * TICK));
        await(all, "every timeout after one jump of the clock");
        if (structure.isExact()) {
            List<Long> expected = new ArrayList<>(scheduled);
            expected.sort(Comparator.naturalOrder()); // stable: ties keep their scheduling order
            assertThat(ranDeadlines).containsExactlyElementsOf(expected);
        } else {
            for (int i = 1; i < count; i++) {
                assertThat(due(ranDeadlines.get(i))).isGreaterThanOrEqualTo(due(ranDeadlines.get(i - 1)));
            }
        }
    }

    // ---- periodic timeouts ----

    @EachStructure
    void fixedRateDoesNotDriftOverTenThousandPeriods(TimerStructure structure) throws InterruptedException {
        start(structure);
        Probe probe = new Probe();
        long initial = 3 * TICK;
        long period = 2 * TICK;
        Timeout timeout = timer.scheduleAtFixedRate(probe, initial, period, NANOSECONDS);
        assertThat(timeout.isPeriodic()).isTrue();
        SplittableRandom random = new SplittableRandom(11);
        List<Long> expected = new ArrayList<>();
        int periods = 10_000;
        for (int k = 0; k < periods; k++) {
            long deadline = at(initial + k * period);
            if (k % 500 == 0) {
                advanceTo(deadline - 1);
                barrier();
                assertThat(probe.runs()).isEqualTo(k);
            }
            // Each run is late by up to a period; the next deadline must not move with it.
            long late = random.nextLong(period);
            advanceTo(deadline + late);
            probe.awaitRuns(1);
            expected.add(deadline + late);
        }
        assertThat(probe.times).containsExactlyElementsOf(expected);

        // Five periods at once: five runs to catch up, all now.
        advanceTo(at(initial + (periods + 4) * period));
        probe.awaitRuns(5);
        barrier();
        assertThat(probe.runs()).isEqualTo(periods + 5);
        assertThat(timeout.isExpired()).isFalse();
        assertThat(timeout.cancel()).isTrue();
        advanceTo(at(initial + (periods + 100) * period));
        barrier();
        assertThat(probe.runs()).isEqualTo(periods + 5);
        assertThat(probe.maxConcurrent).hasValue(1);
    }

    @EachStructure
    void fixedDelayCountsFromTheEndOfEachRun(TimerStructure structure) throws InterruptedException {
        start(structure);
        Probe probe = new Probe();
        probe.body = () -> clock.advance(TICK); // every run takes one tick
        Timeout timeout = timer.scheduleWithFixedDelay(probe, 2 * TICK, 3 * TICK, NANOSECONDS);
        assertThat(timeout.isPeriodic()).isTrue();
        long next = at(2 * TICK);
        for (int run = 1; run <= 3; run++) {
            advanceTo(next - 1);
            barrier();
            assertThat(probe.runs()).isEqualTo(run - 1);
            advanceTo(next);
            probe.awaitRuns(1);
            barrier(); // the driver has set the next deadline
            next += TICK + 3 * TICK;
        }
        assertThat(probe.times).containsExactly(at(2 * TICK), at(6 * TICK), at(10 * TICK));
    }

    @EachStructure
    void periodicKeepsItsScheduleAfterItsTaskThrows(TimerStructure structure) throws InterruptedException {
        start(structure);
        RuntimeException boom = new IllegalStateException("boom");
        Probe rate = new Probe();
        rate.body = () -> {
            throw boom;
        };
        Error fatal = new LinkageError("simulated");
        Probe delay = new Probe();
        delay.body = () -> {
            throw fatal;
        };
        Timeout atRate = timer.scheduleAtFixedRate(rate, TICK, TICK, NANOSECONDS);
        Timeout withDelay = timer.scheduleWithFixedDelay(delay, TICK, TICK, NANOSECONDS);
        for (int k = 1; k <= 3; k++) {
            advanceTo(at(k * TICK));
            rate.awaitRuns(1);
            delay.awaitRuns(1);
            awaitHandled(2);
            barrier(); // the fixed delay counts from the end of the run: let the driver read the clock
        }
        assertThat(handled).hasSize(6);
        assertThat(timer.stats().taskExceptions()).isEqualTo(6);
        assertThat(handled).filteredOn(h -> h.timeout == atRate).hasSize(3).allMatch(h -> h.error == boom);
        assertThat(handled).filteredOn(h -> h.timeout == withDelay).hasSize(3).allMatch(h -> h.error == fatal);
        assertThat(atRate.isCancelled()).isFalse();
        assertThat(withDelay.isCancelled()).isFalse();
    }

    @EachStructure
    void exceptionHandlerGetsTheTimeoutAndTheError(TimerStructure structure) throws InterruptedException {
        start(structure);
        RuntimeException boom = new UnsupportedOperationException("boom");
        Timeout timeout = timer.schedule(
                () -> {
                    throw boom;
                },
                Duration.ofMillis(1));
        advanceTo(at(TICK));
        awaitHandled(1);
        assertThat(handled).singleElement().satisfies(h -> {
            assertThat(h.timeout).isSameAs(timeout);
            assertThat(h.error).isSameAs(boom);
        });
        assertThat(timeout.isExpired()).isTrue();
    }

    @EachStructure
    void aThrowingExceptionHandlerDoesNotStopTheDriver(TimerStructure structure) throws InterruptedException {
        AtomicInteger calls = new AtomicInteger();
        start(
                structure,
                builder -> builder.exceptionHandler((timeout, error) -> {
                    calls.incrementAndGet();
                    throw new IllegalStateException("the handler fails too (expected in this test)");
                }));
        Probe periodic = new Probe();
        periodic.body = () -> {
            throw new IllegalArgumentException("the task fails (expected in this test)");
        };
        timer.scheduleAtFixedRate(periodic, TICK, TICK, NANOSECONDS);
        advanceTo(at(TICK));
        periodic.awaitRuns(1);
        advanceTo(at(2 * TICK));
        periodic.awaitRuns(1);
        Probe after = new Probe();
        timer.schedule(after, Duration.ZERO);
        after.awaitRuns(1);
        assertThat(calls).hasValue(2);
    }

    // ---- closing ----

    @EachStructure
    void closeReturnsTheTimeoutsThatNeverRan(TimerStructure structure) throws InterruptedException {
        start(structure);
        Probe ran = new Probe();
        Probe periodic = new Probe();
        Probe never = new Probe();
        timer.schedule(ran, 1, MILLISECONDS);
        Timeout soon = timer.schedule(never, 5, MILLISECONDS);
        Timeout far = timer.schedule(never, 30, SECONDS);
        Timeout repeating = timer.scheduleAtFixedRate(periodic, TICK, TICK, NANOSECONDS);
        Timeout cancelled = timer.schedule(never, 5, MILLISECONDS);
        assertThat(cancelled.cancel()).isTrue();
        advanceTo(at(TICK));
        ran.awaitRuns(1);
        periodic.awaitRuns(1);
        barrier();

        List<Timeout> left = timer.stop();
        assertThat(left).containsExactlyInAnyOrder(soon, far, repeating);
        assertThat(left).allMatch(Timeout::isCancelled);
        assertThat(timer.isClosed()).isTrue();
        TimerStats stats = timer.stats();
        assertThat(stats.pending()).isZero();
        assertThat(stats.cancelled()).isEqualTo(4);
        assertThat(soon.cancel()).isFalse();
        assertThat(never.runs()).isZero();
        awaitDriverStopped();
    }

    @EachStructure
    void closeReturnsTimeoutsTheDriverHadNotTakenYet(TimerStructure structure) {
        start(structure);
        List<Timeout> scheduled = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            scheduled.add(timer.schedule(() -> {}, 1 + i % 10, SECONDS));
        }
        assertThat(timer.stop()).containsExactlyInAnyOrderElementsOf(scheduled);
        assertThat(scheduled).allMatch(Timeout::isCancelled);
        assertThat(timer.stats().pending()).isZero();
    }

    @EachStructure
    void schedulingAfterCloseThrowsAndASecondCloseReturnsNothing(TimerStructure structure) {
        start(structure);
        timer.schedule(() -> {}, 1, SECONDS);
        assertThat(timer.isClosed()).isFalse();
        assertThat(timer.stop()).hasSize(1);
        assertThat(timer.stop()).isEmpty();
        Runnable task = () -> {};
        List<Runnable> calls = List.of(
                () -> timer.schedule(task, Duration.ZERO),
                () -> timer.schedule(task, 0, SECONDS),
                () -> timer.scheduleAtFixedRate(task, Duration.ZERO, Duration.ofSeconds(1)),
                () -> timer.scheduleAtFixedRate(task, 0, 1, SECONDS),
                () -> timer.scheduleWithFixedDelay(task, Duration.ZERO, Duration.ofSeconds(1)),
                () -> timer.scheduleWithFixedDelay(task, 0, 1, SECONDS));
        for (Runnable call : calls) {
            assertThatThrownBy(call::run)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("closed");
        }
        assertThat(timer.stats().scheduled()).isOne();
        assertThat(timer.stats().pending()).isZero();
    }

    @EachStructure
    void aTaskMayCloseTheTimer(TimerStructure structure) throws InterruptedException {
        start(structure);
        AtomicReference<List<Timeout>> fromInside = new AtomicReference<>();
        AtomicReference<Throwable> scheduleAfter = new AtomicReference<>();
        Probe closer = new Probe();
        closer.body = () -> {
            fromInside.set(timer.stop());
            try {
                timer.schedule(() -> {}, Duration.ZERO);
            } catch (IllegalStateException expected) {
                scheduleAfter.set(expected);
            }
        };
        Probe never = new Probe();
        timer.schedule(closer, 1, MILLISECONDS);
        Timeout sameTurn = timer.schedule(never, 2, MILLISECONDS);
        Timeout later = timer.schedule(never, 1, SECONDS);
        advanceTo(at(2 * TICK)); // both due in this turn, the closer first
        closer.awaitRuns(1);
        awaitDriverStopped();

        assertThat(fromInside.get()).isEmpty();
        assertThat(scheduleAfter.get()).isNotNull();
        assertThat(timer.isClosed()).isTrue();
        assertThat(never.runs()).as("tasks due after the closing one").isZero();
        assertThat(sameTurn.isCancelled()).isTrue();
        assertThat(later.isCancelled()).isTrue();
        assertThat(timer.stats().pending()).isZero();
        assertThat(timer.stop()).isEmpty();
    }

    // ---- limits, counters, input ----

    @EachStructure
    void pendingLimitRejects(TimerStructure structure) throws InterruptedException {
        start(structure, builder -> builder.maxPending(2));
        Probe probe = new Probe();
        Timeout first = timer.schedule(probe, 5, MILLISECONDS);
        timer.scheduleAtFixedRate(probe, 50, 50, MILLISECONDS);
        assertThatThrownBy(() -> timer.schedule(probe, 1, MILLISECONDS))
                .isInstanceOf(RejectedExecutionException.class)
                .hasMessageContaining("2");
        assertThat(first.cancel()).isTrue();
        awaitStats(stats -> stats.pending() == 1, "the driver took the cancel in");
        timer.schedule(probe, 1, MILLISECONDS);
        assertThatThrownBy(() -> timer.scheduleWithFixedDelay(probe, 1, 1, SECONDS))
                .isInstanceOf(RejectedExecutionException.class);
        TimerStats stats = timer.stats();
        assertThat(stats.scheduled()).isEqualTo(3);
        assertThat(stats.pending()).isEqualTo(2);
        assertThat(stats.rejected())
                .as("refused schedules, counted apart from the scheduled")
                .isEqualTo(2);
        advanceTo(at(TICK));
        probe.awaitRuns(1);
        barrier(); // room again once the one-shot has run
    }

    @EachStructure
    void countsAndMeasuresLateness(TimerStructure structure) throws InterruptedException {
        start(structure);
        Probe probe = new Probe();
        timer.schedule(probe, 2, MILLISECONDS);
        timer.schedule(probe, 4, MILLISECONDS);
        Timeout cancelled = timer.schedule(probe, 6, MILLISECONDS);
        assertThat(cancelled.cancel()).isTrue();
        awaitStats(stats -> stats.cancelled() == 1, "the driver took the cancel in");
        TimerStats before = timer.stats();
        assertThat(before.scheduled()).isEqualTo(3);
        assertThat(before.fired()).isZero();
        assertThat(before.cancelled()).isOne();
        assertThat(before.pending()).isEqualTo(2);
        assertThat(before.latenessCount()).isZero();
        assertThat(before.rejected()).isZero();
        assertThat(before.taskExceptions()).isZero();

        advanceTo(at(2 * TICK));
        probe.awaitRuns(1); // on time
        advanceTo(at(7 * TICK));
        probe.awaitRuns(1); // three ticks late
        TimerStats after = timer.stats();
        assertThat(after.scheduled()).isEqualTo(3);
        assertThat(after.fired()).isEqualTo(2);
        assertThat(after.cancelled()).isOne();
        assertThat(after.pending()).isZero();
        assertThat(after.latenessCount()).isEqualTo(2);
        assertThat(after.latenessP50(NANOSECONDS)).isZero();
        assertThat(after.latenessP99(NANOSECONDS)).isEqualTo(3 * TICK);
        assertThat(after.latenessP999(NANOSECONDS)).isEqualTo(3 * TICK);
        assertThat(after.latenessMax(MILLISECONDS)).isEqualTo(3);
        assertThat(after.taskExceptions()).isZero();
        assertThat(after.toString()).contains("fired=2", "pending=0", "rejected=0", "taskExceptions=0");
    }

    @EachStructure
    void refusesBadInputNamingTheArgument(TimerStructure structure) {
        start(structure);
        Runnable task = () -> {};
        Duration second = Duration.ofSeconds(1);
        assertThatThrownBy(() -> timer.schedule((Runnable) null, Duration.ZERO)).hasMessageContaining("task");
        assertThatThrownBy(() -> timer.schedule(task, null)).hasMessageContaining("delay");
        assertThatThrownBy(() -> timer.schedule((Runnable) null, 1, SECONDS)).hasMessageContaining("task");
        assertThatThrownBy(() -> timer.schedule(task, 1, null)).hasMessageContaining("unit");
        assertThatThrownBy(() -> timer.scheduleAtFixedRate((Runnable) null, Duration.ZERO, second))
                .hasMessageContaining("task");
        assertThatThrownBy(() -> timer.scheduleAtFixedRate((TimerTask) null, Duration.ZERO, second))
                .hasMessageContaining("task");
        assertThatThrownBy(() -> timer.scheduleAtFixedRate((TimerTask) timeout -> {}, 0, -5, SECONDS))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("period")
                .hasMessageContaining("-5");
        assertThatThrownBy(() -> timer.scheduleAtFixedRate(task, null, second)).hasMessageContaining("initialDelay");
        assertThatThrownBy(() -> timer.scheduleAtFixedRate(task, Duration.ZERO, null))
                .hasMessageContaining("period");
        assertThatThrownBy(() -> timer.scheduleAtFixedRate(task, 0, 1, null)).hasMessageContaining("unit");
        assertThatThrownBy(() -> timer.scheduleWithFixedDelay((Runnable) null, Duration.ZERO, second))
                .hasMessageContaining("task");
        assertThatThrownBy(() -> timer.scheduleWithFixedDelay((TimerTask) null, 0, 1, SECONDS))
                .hasMessageContaining("task");
        assertThatThrownBy(() -> timer.scheduleWithFixedDelay((TimerTask) timeout -> {}, Duration.ZERO, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("delay");
        assertThatThrownBy(() -> timer.scheduleWithFixedDelay(task, Duration.ZERO, null))
                .hasMessageContaining("delay");
        assertThatThrownBy(() -> timer.scheduleWithFixedDelay(task, 0, 1, null)).hasMessageContaining("unit");
        List<Runnable> nullCalls = List.of(
                () -> timer.schedule((Runnable) null, Duration.ZERO),
                () -> timer.schedule(task, null),
                () -> timer.schedule(task, 1, null),
                () -> timer.scheduleWithFixedDelay(task, null, second));
        nullCalls.forEach(call -> assertThatThrownBy(call::run).isInstanceOf(NullPointerException.class));

        assertThatThrownBy(() -> timer.scheduleAtFixedRate(task, Duration.ZERO, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("period")
                .hasMessageContaining("PT0S");
        assertThatThrownBy(() -> timer.scheduleAtFixedRate(task, 0, -3, SECONDS))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("period")
                .hasMessageContaining("-3");
        assertThatThrownBy(() -> timer.scheduleAtFixedRate(task, 0, 0, SECONDS))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("period")
                .hasMessageContaining("0");
        assertThatThrownBy(() -> timer.scheduleWithFixedDelay(task, Duration.ZERO, Duration.ofMillis(-2)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("delay")
                .hasMessageContaining("-");
        assertThatThrownBy(() -> timer.scheduleWithFixedDelay(task, 0, 0, SECONDS))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("delay")
                .hasMessageContaining("0");

        Timeout timeout = timer.schedule(task, 1, SECONDS);
        assertThatThrownBy(() -> timeout.reschedule(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("delay");
        assertThatThrownBy(() -> timeout.reschedule(1, null))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("unit");
        assertThatThrownBy(() -> timeout.remaining(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("unit");
        assertThat(timeout.remaining(SECONDS)).as("failed calls change nothing").isEqualTo(1);
        assertThat(timer.stats().scheduled()).isOne();
    }

    @EachStructure
    void hugeDelaysSaturateAndNeverRunEarly(TimerStructure structure) throws InterruptedException {
        start(structure);
        Probe probe = new Probe();
        Timeout byDuration = timer.schedule(probe, Duration.ofSeconds(Long.MAX_VALUE));
        Timeout byUnit = timer.schedule(probe, Long.MAX_VALUE, DAYS);
        Timeout periodic = timer.scheduleAtFixedRate(
                probe, Duration.ofSeconds(Long.MAX_VALUE), Duration.ofSeconds(Long.MAX_VALUE, 999_999_999));
        for (Timeout timeout : List.of(byDuration, byUnit, periodic)) {
            assertThat(timeout.remaining(DAYS)).as("about a century or more").isGreaterThan(36_500);
        }
        // From a task that moved the clock first, the driver's own turn lies in the past.
        CountDownLatch scheduledInside = new CountDownLatch(1);
        timer.schedule(
                () -> {
                    clock.advance(5);
                    timer.schedule(probe, Duration.ofSeconds(Long.MAX_VALUE));
                    scheduledInside.countDown();
                },
                Duration.ZERO);
        await(scheduledInside, "the task that schedules");
        barrier();
        clock.advance(Duration.ofDays(365L * 100));
        barrier();
        assertThat(probe.runs()).isZero();
        assertThat(byDuration.isCancelled()).isFalse();
        assertThat(byDuration.remaining(DAYS)).isPositive();
    }

    // ---- executors ----

    @EachStructure
    void tasksRunOnTheExecutor(TimerStructure structure) throws InterruptedException {
        ExecutorService pool = pool("worker");
        start(structure, builder -> builder.executor(pool));
        Probe once = new Probe();
        Probe periodic = new Probe();
        timer.schedule(once, 1, MILLISECONDS);
        Timeout repeating = timer.scheduleAtFixedRate(periodic, TICK, TICK, NANOSECONDS);
        advanceTo(at(TICK));
        once.awaitRuns(1);
        periodic.awaitRuns(1);
        advanceTo(at(2 * TICK));
        periodic.awaitRuns(1);
        assertThat(once.threads).singleElement().satisfies(t -> assertThat(t.getName())
                .startsWith("worker-"));
        assertThat(periodic.threads).allSatisfy(t -> assertThat(t.getName()).startsWith("worker-"));
        assertThat(once.times).containsExactly(at(TICK));
        assertThat(periodic.times).containsExactly(at(TICK), at(2 * TICK));
        assertThat(repeating.cancel()).isTrue();
        assertThat(timer.stats().fired()).isEqualTo(3);
    }

    @EachStructure
    void aPeriodicTaskOnAnExecutorNeverOverlapsItself(TimerStructure structure) throws InterruptedException {
        ExecutorService pool = pool("worker");
        start(structure, builder -> builder.executor(pool));
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Probe probe = new Probe();
        probe.body = () -> {
            if (started.getCount() > 0) {
                started.countDown();
                try {
                    release.await(AWAIT_SECONDS, SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        timer.scheduleAtFixedRate(probe, TICK, TICK, NANOSECONDS);
        advanceTo(at(TICK));
        await(started, "the first run");
        advanceTo(at(5 * TICK)); // four more periods pass while the first run blocks
        barrier();
        assertThat(probe.runs()).isOne();
        release.countDown();
        probe.awaitRuns(5); // the first, then one for each period missed, one after the other
        barrier();
        assertThat(probe.runs()).isEqualTo(5);
        assertThat(probe.maxConcurrent).hasValue(1);
    }

    @EachStructure
    void aPeriodicRunHandedToTheExecutorThenCancelledNeverStarts(TimerStructure structure) throws InterruptedException {
        ManualExecutor executor = new ManualExecutor();
        start(structure, builder -> builder.executor(executor));
        Probe periodic = new Probe();
        Probe once = new Probe();
        Timeout repeating = timer.scheduleAtFixedRate(periodic, TICK, TICK, NANOSECONDS);
        Timeout oneShot = timer.schedule(once, 2, MILLISECONDS);
        advanceTo(at(TICK));
        Runnable handedOver = executor.take();
        assertThat(repeating.cancel()).isTrue();
        handedOver.run();
        assertThat(periodic.runs())
                .as("cancel() returned true before the run began")
                .isZero();

        advanceTo(at(2 * TICK));
        Runnable oneShotRun = executor.take();
        assertThat(oneShot.cancel()).as("a one-shot handed over has started").isFalse();
        assertThat(oneShot.isExpired()).isTrue();
        oneShotRun.run();
        assertThat(once.runs()).isOne();
        barrier(executor);
        assertThat(executor.isEmpty()).isTrue();
        assertThat(timer.stats().pending()).isZero();
    }

    @EachStructure
    void rescheduleDuringAnExecutorRunMovesTheNextRun(TimerStructure structure) throws InterruptedException {
        ManualExecutor executor = new ManualExecutor();
        start(structure, builder -> builder.executor(executor));
        Probe probe = new Probe();
        Timeout timeout = timer.scheduleAtFixedRate(probe, TICK, 10 * TICK, NANOSECONDS);
        advanceTo(at(TICK));
        Runnable run = executor.take();
        assertThat(timeout.reschedule(3 * TICK, NANOSECONDS)).isTrue(); // to 4 ticks, not 11
        run.run();
        advanceTo(at(4 * TICK) - 1);
        barrier(executor);
        advanceTo(at(4 * TICK));
        executor.take().run();
        advanceTo(at(14 * TICK) - 1); // the period goes on from the moved run
        barrier(executor);
        advanceTo(at(14 * TICK));
        executor.take().run();
        assertThat(probe.times).containsExactly(at(TICK), at(4 * TICK), at(14 * TICK));
    }

    @EachStructure
    void aRejectedRunGoesToTheHandlerAndThePeriodGoesOn(TimerStructure structure) throws InterruptedException {
        RejectedExecutionException full = new RejectedExecutionException("full");
        start(
                structure,
                builder -> builder.executor(command -> {
                    throw full;
                }));
        Timeout timeout = timer.scheduleAtFixedRate(() -> {}, TICK, TICK, NANOSECONDS);
        advanceTo(at(TICK));
        awaitHandled(1);
        advanceTo(at(2 * TICK));
        awaitHandled(1);
        assertThat(handled).hasSize(2).allMatch(h -> h.timeout == timeout && h.error == full);
        TimerStats stats = timer.stats();
        assertThat(stats.taskExceptions()).as("the executor's refusals").isEqualTo(2);
        assertThat(stats.rejected()).as("the pending limit's refusals only").isZero();
        assertThat(stats.fired()).isZero();
        assertThat(timeout.isCancelled()).isFalse();
        assertThat(timeout.cancel()).isTrue();
    }

    @EachStructure
    void aRunHandedOverBeforeCloseEndsCancelled(TimerStructure structure) throws InterruptedException {
        ManualExecutor executor = new ManualExecutor();
        start(structure, builder -> builder.executor(executor));
        Probe probe = new Probe();
        Timeout timeout = timer.scheduleWithFixedDelay(probe, TICK, TICK, NANOSECONDS);
        advanceTo(at(TICK));
        Runnable run = executor.take();
        assertThat(timer.stop()).as("the periodic is running, not pending").isEmpty();
        run.run();
        assertThat(probe.runs()).isOne();
        assertThat(timeout.isCancelled()).isTrue();
        assertThat(timer.stats().pending()).isZero();
    }

    // ---- calls from the driver's own thread ----

    @EachStructure
    void aTaskMayScheduleCancelAndRescheduleOthers(TimerStructure structure) throws InterruptedException {
        start(structure);
        Probe victim = new Probe();
        Probe moved = new Probe();
        Probe later = new Probe();
        Timeout toCancel = timer.schedule(victim, 5, MILLISECONDS);
        Timeout toMove = timer.schedule(moved, 50, MILLISECONDS);
        List<Boolean> results = new CopyOnWriteArrayList<>();
        Probe task = new Probe();
        task.body = () -> {
            timer.schedule(later, 3, MILLISECONDS);
            results.add(toCancel.cancel());
            results.add(toMove.reschedule(Duration.ZERO));
        };
        timer.schedule(task, 2, MILLISECONDS);
        advanceTo(at(2 * TICK));
        task.awaitRuns(1);
        moved.awaitRuns(1); // due at once: runs in the same turn, without moving the clock
        assertThat(results).containsExactly(true, true);
        assertThat(moved.times).containsExactly(at(2 * TICK));
        advanceTo(at(5 * TICK) - 1);
        barrier();
        assertThat(later.runs()).isZero();
        advanceTo(at(5 * TICK));
        later.awaitRuns(1);
        barrier();
        assertThat(victim.runs()).isZero();
        assertThat(later.threads).allMatch(driverThreads::contains);
    }

    @EachStructure
    void aPeriodicTaskMayRescheduleAndCancelItself(TimerStructure structure) throws InterruptedException {
        start(structure);
        AtomicReference<Timeout> self = new AtomicReference<>();
        List<Boolean> results = new CopyOnWriteArrayList<>();
        Probe probe = new Probe();
        probe.body = () -> {
            int run = probe.runs();
            if (run == 1) {
                results.add(self.get().reschedule(Duration.ZERO)); // again at once, not a period later
            } else if (run == 2) {
                results.add(self.get().reschedule(7 * TICK, NANOSECONDS));
            } else {
                results.add(self.get().cancel());
            }
        };
        self.set(timer.scheduleAtFixedRate(probe, TICK, 2 * TICK, NANOSECONDS));
        advanceTo(at(TICK));
        probe.awaitRuns(2);
        barrier();
        advanceTo(at(3 * TICK)); // where the period would have put it
        barrier();
        assertThat(probe.runs()).isEqualTo(2);
        advanceTo(at(8 * TICK) - 1);
        barrier();
        assertThat(probe.runs()).isEqualTo(2);
        advanceTo(at(8 * TICK));
        probe.awaitRuns(1);
        advanceTo(at(100 * TICK));
        barrier();
        assertThat(probe.times).containsExactly(at(TICK), at(TICK), at(8 * TICK));
        assertThat(results).containsExactly(true, true, true);
        assertThat(self.get().isCancelled()).isTrue();
        assertThat(timer.stats().pending()).isZero();
    }

    @EachStructure
    void aPeriodicTimerTaskGetsItsOwnTimeoutEachRunAndHearsOfItsCancellation(TimerStructure structure)
            throws InterruptedException {
        start(structure);
        List<Timeout> rateRuns = new CopyOnWriteArrayList<>();
        List<Long> rateTimes = new CopyOnWriteArrayList<>();
        List<Timeout> rateCancelled = new CopyOnWriteArrayList<>();
        TimerTask everyTwoTicks = new TimerTask() {
            @Override
            public void run(Timeout timeout) {
                rateRuns.add(timeout);
                rateTimes.add(clock.nanoTime());
                if (rateRuns.size() == 3) {
                    timeout.cancel();
                }
            }

            @Override
            public void cancelled(Timeout timeout) {
                rateCancelled.add(timeout);
            }
        };
        List<Timeout> delayRuns = new CopyOnWriteArrayList<>();
        List<Timeout> delayCancelled = new CopyOnWriteArrayList<>();
        TimerTask afterEachRun = new TimerTask() {
            @Override
            public void run(Timeout timeout) {
                delayRuns.add(timeout);
            }

            @Override
            public void cancelled(Timeout timeout) {
                delayCancelled.add(timeout);
            }
        };
        Timeout rate = timer.scheduleAtFixedRate(everyTwoTicks, TICK, 2 * TICK, NANOSECONDS);
        Timeout delay = timer.scheduleWithFixedDelay(afterEachRun, Duration.ofNanos(TICK), Duration.ofNanos(3 * TICK));
        for (long t = TICK; t <= 20 * TICK; t += TICK) {
            advanceTo(at(t));
            barrier();
        }
        assertThat(delay.cancel()).isTrue();
        advanceTo(at(40 * TICK));
        barrier();
        assertThat(rateRuns).containsExactly(rate, rate, rate);
        assertThat(rateTimes).containsExactly(at(TICK), at(3 * TICK), at(5 * TICK));
        assertThat(rateCancelled).containsExactly(rate);
        assertThat(delayRuns).hasSize(7).allMatch(run -> run == delay);
        assertThat(delayCancelled).containsExactly(delay);
        assertThat(timer.stats().pending()).isZero();
    }
}
