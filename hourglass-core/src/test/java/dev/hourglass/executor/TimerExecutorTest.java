package dev.hourglass.executor;

import static java.util.concurrent.TimeUnit.DAYS;
import static java.util.concurrent.TimeUnit.HOURS;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.NANOSECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hourglass.queue.TimerStructure;
import dev.hourglass.time.ManualNanoClock;
import dev.hourglass.timer.Timer;
import dev.hourglass.timer.TimerBuilder;
import dev.hourglass.timer.Timers;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What the adapter does with time, on a {@link ManualNanoClock} without sleeping: when tasks run,
 * {@code getDelay}, fixed rate and fixed delay, the shutdown policies' "already due" rule; and what
 * only the adapter has: its timer, owned or borrowed, refusals by the timer or the task executor.
 * To show that something has not happened, a zero-delay probe on the timer runs after everything
 * due at the clock's time ({@link #settle}).
 */
@org.junit.jupiter.api.Timeout(60)
class TimerExecutorTest {

    private static final long START = Long.MAX_VALUE - SECONDS.toNanos(1); // runs across the wrap
    private static final long MS = MILLISECONDS.toNanos(1);

    private final ManualNanoClock clock = new ManualNanoClock(START);
    private final List<Throwable> timerHandlerSaw = new CopyOnWriteArrayList<>();
    private final List<Timer> timers = new ArrayList<>();
    private final List<Long> ranAt = new CopyOnWriteArrayList<>();

    private TimerBuilder timerBuilder() {
        return Timers.builder()
                .structure(TimerStructure.BINARY_HEAP)
                .clock(clock)
                .exceptionHandler((timeout, error) -> timerHandlerSaw.add(error));
    }

    private Timer newTimer() {
        Timer timer = timerBuilder().startTimerThread();
        timers.add(timer);
        return timer;
    }

    @AfterEach
    void closeTimers() {
        timers.forEach(Timer::close);
        assertThat(timerHandlerSaw)
                .as("what reached the timer's exception handler")
                .isEmpty();
    }

    private Runnable recordRun() {
        return () -> ranAt.add(clock.nanoTime() - START);
    }

    /** Returns once the timer has run everything due at the clock's time. */
    private static void settle(Timer timer) throws InterruptedException {
        CountDownLatch probe = new CountDownLatch(1);
        timer.schedule(probe::countDown, 0, NANOSECONDS);
        assertThat(probe.await(10, SECONDS)).as("the settling probe ran").isTrue();
    }

    /**
     * Moves the clock and settles. A late periodic run files its next run at once, after a probe
     * already waiting: each probe lets at least one more run of a catching-up task through, and no
     * test here catches up more than three.
     */
    private void advanceTo(Timer timer, long offset) throws InterruptedException {
        clock.advance(START + offset - clock.nanoTime());
        for (int i = 0; i < 4; i++) {
            settle(timer);
        }
    }

    @Test
    void tasksRunAtTheirDeadlineNeverEarlyInDeadlineThenSubmissionOrder() throws Exception {
        Timer timer = newTimer();
        TimerExecutorService executor = TimerExecutors.builder().build(timer);
        List<String> order = new CopyOnWriteArrayList<>();
        executor.schedule(() -> order.add("30"), 30, MILLISECONDS);
        executor.schedule(() -> order.add("10"), 10, MILLISECONDS);
        executor.schedule(() -> order.add("20a"), 20, MILLISECONDS);
        executor.schedule(() -> order.add("20b"), 20, MILLISECONDS);
        executor.schedule(recordRun(), 20, MILLISECONDS);
        advanceTo(timer, 10 * MS - 1);
        assertThat(order).isEmpty();
        advanceTo(timer, 10 * MS);
        assertThat(order).containsExactly("10");
        advanceTo(timer, 20 * MS - 1);
        assertThat(order).containsExactly("10");
        advanceTo(timer, 20 * MS);
        advanceTo(timer, 29 * MS);
        assertThat(order).containsExactly("10", "20a", "20b");
        assertThat(ranAt).containsExactly(20 * MS);
        advanceTo(timer, 31 * MS);
        assertThat(order).containsExactly("10", "20a", "20b", "30");
    }

    @Test
    void getDelayFollowsTheClockExactly() throws Exception {
        Timer timer = newTimer();
        TimerExecutorService executor = TimerExecutors.builder().build(timer);
        ScheduledFuture<?> task = executor.schedule(() -> {}, 100, MILLISECONDS);
        assertThat(task.getDelay(NANOSECONDS)).isEqualTo(100 * MS);
        advanceTo(timer, 30 * MS);
        assertThat(task.getDelay(MILLISECONDS)).isEqualTo(70);
        advanceTo(timer, 105 * MS);
        assertThat(task.isDone()).isTrue();
        assertThat(task.getDelay(NANOSECONDS)).isEqualTo(-5 * MS);
        ScheduledFuture<?> negative = executor.schedule(() -> {}, -1, DAYS);
        assertThat(negative.getDelay(NANOSECONDS))
                .as("a negative delay counts as zero")
                .isLessThanOrEqualTo(0);
        ScheduledFuture<?> huge = executor.schedule(() -> {}, Long.MAX_VALUE, DAYS);
        assertThat(huge.getDelay(NANOSECONDS)).isEqualTo(Timer.MAX_DELAY_NANOS);
    }

    @Test
    void aCancelledTaskLeavesTheTimerAtOnce() throws Exception {
        Timer timer = newTimer();
        TimerExecutorService executor = TimerExecutors.builder().build(timer);
        ScheduledFuture<?> oneShot = executor.schedule(() -> {}, 1, HOURS);
        ScheduledFuture<?> periodic = executor.scheduleWithFixedDelay(() -> {}, 1, 1, HOURS);
        settle(timer);
        assertThat(timer.stats().pending()).isEqualTo(2);
        oneShot.cancel(false);
        periodic.cancel(true);
        settle(timer);
        assertThat(timer.stats().pending()).isZero();
        assertThat(timer.stats().cancelled()).isEqualTo(2);
    }

    @Test
    void compareToBreaksTiesBySubmissionOrder() {
        TimerExecutorService executor = TimerExecutors.builder().build(newTimer());
        ScheduledFuture<?> first = executor.schedule(() -> {}, 1, SECONDS);
        ScheduledFuture<?> second = executor.schedule(() -> {}, 1, SECONDS);
        ScheduledFuture<?> earlier = executor.schedule(() -> {}, 999, MILLISECONDS);
        assertThat(first.compareTo(second)).isNegative();
        assertThat(second.compareTo(first)).isPositive();
        assertThat(earlier.compareTo(first)).isNegative();
    }

    @Test
    void aFixedRateTaskRunsFromItsFirstDeadlineAndCatchesUp() throws Exception {
        Timer timer = newTimer();
        TimerExecutorService executor = TimerExecutors.builder().build(timer);
        ScheduledFuture<?> periodic = executor.scheduleAtFixedRate(recordRun(), 10, 10, MILLISECONDS);
        advanceTo(timer, 10 * MS);
        assertThat(ranAt).containsExactly(10 * MS);
        advanceTo(timer, 45 * MS); // deadlines 20, 30, 40 are late: they run at once, one after another
        assertThat(ranAt).containsExactly(10 * MS, 45 * MS, 45 * MS, 45 * MS);
        assertThat(periodic.getDelay(NANOSECONDS)).isEqualTo(5 * MS);
        assertThat(periodic.cancel(false)).isTrue();
        advanceTo(timer, 100 * MS);
        assertThat(ranAt).hasSize(4);
    }

    @Test
    void aFixedDelayTaskCountsFromTheEndOfEachRun() throws Exception {
        Timer timer = newTimer();
        TimerExecutorService executor = TimerExecutors.builder().build(timer);
        ScheduledFuture<?> periodic = executor.scheduleWithFixedDelay(
                () -> {
                    ranAt.add(clock.nanoTime() - START);
                    clock.advance(3 * MS); // the run takes 3 ms
                },
                10,
                10,
                MILLISECONDS);
        advanceTo(timer, 10 * MS);
        assertThat(ranAt).containsExactly(10 * MS);
        assertThat(periodic.getDelay(NANOSECONDS)).isEqualTo(10 * MS); // ended at 13, next at 23
        advanceTo(timer, 22 * MS);
        assertThat(ranAt).hasSize(1);
        advanceTo(timer, 60 * MS); // late: one run at 60, ending at 63, and the next at 73
        assertThat(ranAt).containsExactly(10 * MS, 60 * MS);
        assertThat(periodic.getDelay(NANOSECONDS)).isEqualTo(10 * MS);
    }

    @Test
    void aPeriodicTaskThatThrowsStopsThoughThePlainTimerWouldGoOn() throws Exception {
        Timer timer = newTimer();
        TimerExecutorService executor = TimerExecutors.builder().build(timer);
        AtomicInteger executorRuns = new AtomicInteger();
        ScheduledFuture<?> periodic = executor.scheduleAtFixedRate(
                () -> {
                    executorRuns.incrementAndGet();
                    throw new IllegalStateException("executor task");
                },
                10,
                10,
                MILLISECONDS);
        advanceTo(timer, 10 * MS);
        assertThat(executorRuns).hasValue(1);
        assertThatThrownBy(() -> periodic.get(0, SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause()
                .hasMessage("executor task");
        advanceTo(timer, 100 * MS);
        assertThat(executorRuns).hasValue(1);
        assertThat(timer.stats().pending())
                .as("nothing left filed on the timer")
                .isZero();
        assertThat(timerHandlerSaw).as("its exception went to its future only").isEmpty();
        assertThat(executor.failedCount()).as("failed futures").isOne();

        // The plain Timer keeps such a task alive (its exception goes to the handler).
        AtomicInteger timerRuns = new AtomicInteger();
        timer.scheduleAtFixedRate(
                () -> {
                    timerRuns.incrementAndGet();
                    throw new IllegalStateException("timer task");
                },
                10,
                10,
                MILLISECONDS);
        advanceTo(timer, 110 * MS);
        advanceTo(timer, 120 * MS);
        assertThat(timerRuns).hasValue(2);
        assertThat(timerHandlerSaw).hasSize(2);
        timerHandlerSaw.clear();
    }

    @Test
    void withoutDelayedTasksAfterShutdownADueTaskStillRunsAndALaterOneIsCancelled() throws Exception {
        Timer timer = newTimer();
        TimerExecutorService executor = TimerExecutors.builder()
                .executeExistingDelayedTasksAfterShutdown(false)
                .build(timer);
        CountDownLatch gateStarted = new CountDownLatch(1);
        CountDownLatch gate = new CountDownLatch(1);
        executor.execute(() -> {
            gateStarted.countDown();
            awaitQuietly(gate); // holds the timer thread: the due task below waits behind it
        });
        ScheduledFuture<String> due;
        try {
            assertThat(gateStarted.await(10, SECONDS)).isTrue();
            due = executor.schedule(() -> "due", 5, MILLISECONDS);
            ScheduledFuture<String> later = executor.schedule(() -> "later", 10, MILLISECONDS);
            clock.advance(5 * MS);
            executor.shutdown();
            assertThat(later.isCancelled()).isTrue();
            assertThat(due.isDone()).isFalse();
        } finally {
            gate.countDown(); // a failure must not leave the timer thread held
        }
        assertThat(due.get(10, SECONDS)).isEqualTo("due");
        assertThat(executor.awaitTermination(10, SECONDS)).isTrue();
        assertThat(timer.isClosed()).as("a borrowed timer stays open").isFalse();
    }

    @Test
    void anOwnedTimerClosesWhenTheExecutorTerminatesABorrowedOneDoesNot() throws Exception {
        TimerExecutorService owning = TimerExecutors.builder().startTimerThread(timerBuilder());
        Timer owned = owning.timer();
        assertThat(owned.clock()).isSameAs(clock);
        ScheduledFuture<?> far = owning.schedule(() -> {}, 1, HOURS);
        owning.shutdown();
        assertThat(owned.isClosed()).as("a delayed task still waits").isFalse();
        far.cancel(false);
        assertThat(owning.awaitTermination(10, SECONDS)).isTrue();
        assertThat(owned.isClosed()).isTrue();

        Timer borrowed = newTimer();
        TimerExecutorService borrowing = TimerExecutors.builder().build(borrowed);
        assertThat(borrowing.timer()).isSameAs(borrowed);
        borrowing.close();
        assertThat(borrowing.isTerminated()).isTrue();
        assertThat(borrowed.isClosed()).isFalse();
        CountDownLatch stillWorks = new CountDownLatch(1);
        borrowed.schedule(stillWorks::countDown, 0, NANOSECONDS);
        assertThat(stillWorks.await(10, SECONDS)).isTrue();
        TimerExecutorService defaults = TimerExecutors.builder().startTimerThread();
        defaults.close();
        assertThat(defaults.timer().isClosed()).isTrue();
    }

    @Test
    void aRefusalByTheTimerIsARejectedExecution() throws Exception {
        Timer small = timerBuilder().maxPending(1).startTimerThread();
        timers.add(small);
        TimerExecutorService executor = TimerExecutors.builder().build(small);
        ScheduledFuture<?> first = executor.schedule(() -> {}, 1, HOURS);
        assertThatThrownBy(() -> executor.schedule(() -> {}, 1, HOURS)).isInstanceOf(RejectedExecutionException.class);
        assertThat(executor.rejectedCount()).isOne();
        first.cancel(false);
        executor.shutdown();
        assertThat(executor.awaitTermination(10, SECONDS))
                .as("the refused task is not waited for")
                .isTrue();

        Timer closing = newTimer();
        TimerExecutorService onClosing = TimerExecutors.builder().build(closing);
        // A periodic task whose timer closes under it cannot file its next run: its future fails.
        ScheduledFuture<?> periodic = onClosing.scheduleAtFixedRate(closing::close, 0, 1, MILLISECONDS);
        assertThatThrownBy(() -> periodic.get(10, SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(RejectedExecutionException.class)
                .hasMessageContaining("closed");
        assertThatThrownBy(() -> onClosing.submit(() -> {})).isInstanceOf(RejectedExecutionException.class);
        assertThat(onClosing.failedCount()).as("the periodic task's future").isOne();
        assertThat(onClosing.rejectedCount())
                .as("the submission to a closed timer")
                .isOne();
        onClosing.shutdown();
        assertThat(onClosing.awaitTermination(10, SECONDS)).isTrue();
    }

    @Test
    void aTaskTheTaskExecutorRefusesFailsItsFuture() throws Exception {
        TimerExecutorService executor = TimerExecutors.builder()
                .taskExecutor(task -> {
                    throw new RejectedExecutionException("pool full");
                })
                .build(newTimer());
        java.util.concurrent.Future<?> refused = executor.submit(() -> {});
        assertThatThrownBy(() -> refused.get(10, SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause()
                .hasMessage("pool full");
        assertThat(executor.failedCount()).isOne();
        executor.shutdown();
        assertThat(executor.awaitTermination(10, SECONDS)).isTrue();
    }

    @Test
    void refusalsAfterShutdownCountAsRejectedCancellationsAsNeither() throws Exception {
        Timer timer = newTimer();
        TimerExecutorService executor = TimerExecutors.builder().build(timer);
        ScheduledFuture<?> cancelled = executor.schedule(() -> {}, 1, HOURS);
        assertThat(cancelled.cancel(true)).isTrue();
        executor.submit(() -> {}).get(10, SECONDS);
        executor.shutdown();
        assertThatThrownBy(() -> executor.execute(() -> {})).isInstanceOf(RejectedExecutionException.class);
        assertThatThrownBy(() -> executor.schedule(() -> {}, 1, SECONDS))
                .isInstanceOf(RejectedExecutionException.class);
        assertThat(executor.rejectedCount()).isEqualTo(2);
        assertThat(executor.failedCount()).isZero();
    }

    @Test
    void runningAWaitingTaskByHandRunsItNowAndOnlyOnce() throws Exception {
        Timer timer = newTimer();
        TimerExecutorService executor = TimerExecutors.builder().build(timer);
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        ScheduledFuture<?> far = executor.schedule(() -> ranOn.set(Thread.currentThread()), 1, HOURS);
        ((Runnable) far).run();
        assertThat(ranOn).hasValue(Thread.currentThread());
        assertThat(far.isDone()).isTrue();
        ranOn.set(null);
        advanceTo(timer, HOURS.toNanos(2));
        assertThat(ranOn).as("its timeout was cancelled").hasValue(null);
    }

    @Test
    void badBuilderInputIsRefusedByName() {
        TimerExecutorBuilder builder = TimerExecutors.builder();
        assertThatThrownBy(() -> builder.build(null)).hasMessage("timer");
        assertThatThrownBy(() -> builder.taskExecutor(null)).hasMessage("executor");
        assertThatThrownBy(() -> builder.startTimerThread(null)).hasMessage("timerBuilder");
        Timer closed = newTimer();
        closed.close();
        assertThatThrownBy(() -> builder.build(closed))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("timer is closed");
        TimerExecutorService executor = builder.build(newTimer());
        assertThatThrownBy(() -> executor.scheduleAtFixedRate(() -> {}, 0, -3, SECONDS))
                .hasMessage("period must be positive: -3 SECONDS");
        assertThatThrownBy(() -> executor.scheduleWithFixedDelay(() -> {}, 0, 0, SECONDS))
                .hasMessage("delay must be positive: 0 SECONDS");
        assertThatThrownBy(() -> executor.schedule(() -> {}, 1, null)).hasMessage("unit");
    }

    static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
