package dev.hourglass.executor;

import static java.util.concurrent.TimeUnit.HOURS;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.MINUTES;
import static java.util.concurrent.TimeUnit.NANOSECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The {@link java.util.concurrent.ScheduledExecutorService} contract, method by method, run on the
 * JDK's {@link java.util.concurrent.ScheduledThreadPoolExecutor} and on the adapter (tasks on the
 * timer's thread and on a pool) alike, so that each behaviour is shown to be the JDK's. Real time,
 * but no timing is asserted: delays are zero or an hour, and tests wait on latches and futures.
 * What depends on time is tested on a manual clock in {@link TimerExecutorTest}.
 */
@org.junit.jupiter.api.Timeout(60)
class ExecutorContractTest {

    /** A safety net for waits; a working executor answers in microseconds. */
    private static final long WAIT_SECONDS = 10;

    private final List<ExecutorService> pools = new ArrayList<>();
    private final List<ScheduledExecutorService> executors = new ArrayList<>();

    private ScheduledExecutorService start(Implementations impl) {
        return start(impl, true, false);
    }

    private ScheduledExecutorService start(Implementations impl, boolean executeDelayed, boolean continuePeriodic) {
        ScheduledExecutorService executor = impl.create(executeDelayed, continuePeriodic, pools);
        executors.add(executor);
        return executor;
    }

    @AfterEach
    void stopEverything() throws InterruptedException {
        for (ScheduledExecutorService executor : executors) {
            executor.shutdownNow();
            assertThat(executor.awaitTermination(WAIT_SECONDS, SECONDS))
                    .as("%s terminates", executor)
                    .isTrue();
        }
        pools.forEach(ExecutorService::shutdownNow);
    }

    private static void await(CountDownLatch latch, String what) throws InterruptedException {
        assertThat(latch.await(WAIT_SECONDS, SECONDS)).as(what).isTrue();
    }

    /** A task that says when it started and blocks until released or interrupted. */
    private static final class Blocker implements Callable<String> {
        final CountDownLatch started = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final CountDownLatch ended = new CountDownLatch(1);
        final AtomicBoolean interrupted = new AtomicBoolean();
        final AtomicBoolean interruptedAtEnd = new AtomicBoolean();

        @Override
        public String call() {
            started.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                interrupted.set(true);
            } finally {
                interruptedAtEnd.set(Thread.currentThread().isInterrupted());
                ended.countDown();
            }
            return "released";
        }
    }

    // ---- submit, execute, get ----

    @ParameterizedTest
    @EnumSource(Implementations.class)
    void submitRunsTheTaskAndGetReturnsItsResult(Implementations impl) throws Exception {
        ScheduledExecutorService executor = start(impl);
        Future<String> callable = executor.submit(() -> "value");
        Future<String> withResult = executor.submit(() -> {}, "given");
        Future<?> runnable = executor.submit(() -> {});
        assertThat(callable.get()).isEqualTo("value");
        assertThat(withResult.get(WAIT_SECONDS, SECONDS)).isEqualTo("given");
        assertThat(runnable.get()).isNull();
        for (Future<?> f : List.of(callable, withResult, runnable)) {
            assertThat(f).isInstanceOf(ScheduledFuture.class);
            assertThat(f.isDone()).isTrue();
            assertThat(f.isCancelled()).isFalse();
            assertThat(f.cancel(true)).as("cancel after completion").isFalse();
        }
    }

    @ParameterizedTest
    @EnumSource(Implementations.class)
    void executeRunsTheTaskAndOneThatThrowsHarmsNothing(Implementations impl) throws Exception {
        ScheduledExecutorService executor = start(impl);
        executor.execute(() -> {
            throw new IllegalStateException("boom");
        });
        CountDownLatch ran = new CountDownLatch(1);
        executor.execute(ran::countDown);
        await(ran, "the task after the one that threw");
    }

    @ParameterizedTest
    @EnumSource(Implementations.class)
    void aTaskThatThrowsCompletesItsFutureExceptionally(Implementations impl) throws Exception {
        ScheduledExecutorService executor = start(impl);
        Future<Object> failed = executor.submit(() -> {
            throw new java.io.IOException("disk");
        });
        assertThatThrownBy(failed::get)
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(java.io.IOException.class)
                .hasMessage("disk");
        assertThat(failed.isDone()).isTrue();
        assertThat(failed.isCancelled()).isFalse();
    }

    @ParameterizedTest
    @EnumSource(Implementations.class)
    void getWithATimeoutOnAWaitingTaskTimesOut(Implementations impl) {
        ScheduledExecutorService executor = start(impl);
        ScheduledFuture<String> far = executor.schedule(() -> "late", 1, HOURS);
        assertThatThrownBy(() -> far.get(1, MILLISECONDS)).isInstanceOf(TimeoutException.class);
        assertThatThrownBy(() -> far.get(0, NANOSECONDS)).isInstanceOf(TimeoutException.class);
        assertThat(far.isDone()).isFalse();
    }

    @ParameterizedTest
    @EnumSource(Implementations.class)
    void delaysOfZeroOrLessRunAtOnce(Implementations impl) throws Exception {
        ScheduledExecutorService executor = start(impl);
        assertThat(executor.schedule(() -> "zero", 0, SECONDS).get(WAIT_SECONDS, SECONDS))
                .isEqualTo("zero");
        assertThat(executor.schedule(() -> "negative", -5, HOURS).get(WAIT_SECONDS, SECONDS))
                .isEqualTo("negative");
        assertThat(executor.schedule(() -> "min", Long.MIN_VALUE, NANOSECONDS).get(WAIT_SECONDS, SECONDS))
                .isEqualTo("min");
    }

    // ---- ScheduledFuture: delay, order, cancel ----

    @ParameterizedTest
    @EnumSource(Implementations.class)
    void getDelayCountsDownAndCompareToOrdersByDeadline(Implementations impl) {
        ScheduledExecutorService executor = start(impl);
        ScheduledFuture<?> inTwoHours = executor.schedule(() -> {}, 2, HOURS);
        ScheduledFuture<?> inOneHour = executor.schedule(() -> {}, 1, HOURS);
        assertThat(inOneHour.getDelay(MINUTES)).isBetween(58L, 60L);
        assertThat(inTwoHours.getDelay(HOURS)).isEqualTo(1); // rounded down, and already below two
        assertThat(inOneHour.compareTo(inTwoHours)).isNegative();
        assertThat(inTwoHours.compareTo(inOneHour)).isPositive();
        assertThat(inOneHour.compareTo(inOneHour)).isZero();
        ScheduledFuture<?> huge = executor.schedule(() -> {}, Long.MAX_VALUE, NANOSECONDS);
        assertThat(huge.getDelay(NANOSECONDS)).as("saturated, not overflowed").isGreaterThan(HOURS.toNanos(24 * 365));
        assertThat(huge.compareTo(inTwoHours)).isPositive();
    }

    @ParameterizedTest
    @EnumSource(Implementations.class)
    void cancelOfAWaitingTaskMeansItNeverRuns(Implementations impl) throws Exception {
        ScheduledExecutorService executor = start(impl);
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> far = executor.schedule(runs::incrementAndGet, 1, HOURS);
        assertThat(far.cancel(false)).isTrue();
        assertThat(far.cancel(true)).as("a second cancel").isFalse();
        assertThat(far.isCancelled()).isTrue();
        assertThat(far.isDone()).isTrue();
        assertThatThrownBy(far::get).isInstanceOf(CancellationException.class);
        assertThatThrownBy(() -> far.get(1, SECONDS)).isInstanceOf(CancellationException.class);
        // The cancelled task holds nothing: a shutdown terminates at once, nothing returned.
        executor.shutdown();
        assertThat(executor.awaitTermination(WAIT_SECONDS, SECONDS)).isTrue();
        assertThat(runs).hasValue(0);
    }

    @ParameterizedTest
    @EnumSource(Implementations.class)
    void cancelTrueInterruptsARunningTask(Implementations impl) throws Exception {
        ScheduledExecutorService executor = start(impl);
        Blocker blocker = new Blocker();
        Future<String> running = executor.submit(blocker);
        await(blocker.started, "the task started");
        // Queued behind it: on one thread it runs right after it, in the same turn of the timer.
        AtomicBoolean nextInterrupted = new AtomicBoolean(true);
        Future<?> next =
                executor.submit(() -> nextInterrupted.set(Thread.currentThread().isInterrupted()));
        assertThat(running.cancel(true)).isTrue();
        await(blocker.ended, "the interrupted task ended");
        assertThat(blocker.interrupted).isTrue();
        assertThat(running.isCancelled()).isTrue();
        assertThat(running.isDone()).isTrue();
        assertThatThrownBy(running::get).isInstanceOf(CancellationException.class);
    }

    @ParameterizedTest
    @EnumSource(Implementations.class)
    void theInterruptOfACancelledTaskDoesNotLeakIntoTheNextTask(Implementations impl) throws Exception {
        ScheduledExecutorService executor = start(impl);
        CountDownLatch started = new CountDownLatch(1);
        // A task that sees the interrupt and returns without clearing it.
        Future<?> spinning = executor.submit(() -> {
            started.countDown();
            while (!Thread.currentThread().isInterrupted()) {
                Thread.onSpinWait();
            }
        });
        await(started, "the task started");
        // Queued behind it: on one thread it runs right after it, in the same turn of the timer.
        AtomicBoolean nextInterrupted = new AtomicBoolean(true);
        Future<?> next =
                executor.submit(() -> nextInterrupted.set(Thread.currentThread().isInterrupted()));
        assertThat(spinning.cancel(true)).isTrue();
        next.get(WAIT_SECONDS, SECONDS);
        assertThat(nextInterrupted).isFalse();
    }

    @ParameterizedTest
    @EnumSource(Implementations.class)
    void cancelFalseLetsARunningTaskFinishUninterrupted(Implementations impl) throws Exception {
        ScheduledExecutorService executor = start(impl);
        Blocker blocker = new Blocker();
        Future<String> running = executor.submit(blocker);
        await(blocker.started, "the task started");
        assertThat(running.cancel(false)).isTrue();
        assertThat(running.isCancelled()).isTrue();
        blocker.release.countDown();
        await(blocker.ended, "the task ended");
        assertThat(blocker.interrupted).isFalse();
        assertThat(blocker.interruptedAtEnd).isFalse();
        assertThatThrownBy(running::get).isInstanceOf(CancellationException.class);
    }

    // ---- periodic tasks ----

    @ParameterizedTest
    @EnumSource(Implementations.class)
    void aPeriodicTaskThatThrowsIsNotRunAgainAndItsFutureFails(Implementations impl) throws Exception {
        ScheduledExecutorService executor = start(impl);
        for (boolean fixedRate : new boolean[] {true, false}) {
            AtomicInteger runs = new AtomicInteger();
            Runnable thirdThrows = () -> {
                if (runs.incrementAndGet() == 3) {
                    throw new IllegalStateException("third run");
                }
            };
            ScheduledFuture<?> periodic = fixedRate
                    ? executor.scheduleAtFixedRate(thirdThrows, 0, 1, MILLISECONDS)
                    : executor.scheduleWithFixedDelay(thirdThrows, 0, 1, MILLISECONDS);
            assertThatThrownBy(() -> periodic.get(WAIT_SECONDS, SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .cause()
                    .hasMessage("third run");
            assertThat(periodic.isDone()).isTrue();
            assertThat(periodic.isCancelled()).isFalse();
            // No fourth run: a later task on the same executor has run by the time it is checked.
            Thread.sleep(20);
            executor.submit(() -> {}).get(WAIT_SECONDS, SECONDS);
            assertThat(runs).as("fixed rate: %s", fixedRate).hasValue(3);
        }
    }

    @ParameterizedTest
    @EnumSource(Implementations.class)
    void aPeriodicTaskRunsUntilCancelledAndItsGetThenThrows(Implementations impl) throws Exception {
        ScheduledExecutorService executor = start(impl);
        CountDownLatch threeRuns = new CountDownLatch(3);
        ScheduledFuture<?> periodic = executor.scheduleWithFixedDelay(threeRuns::countDown, 0, 1, MILLISECONDS);
        await(threeRuns, "three runs");
        assertThat(periodic.isDone()).isFalse();
        assertThat(periodic.cancel(false)).isTrue();
        assertThat(periodic.isDone()).isTrue();
        assertThatThrownBy(periodic::get).isInstanceOf(CancellationException.class);
    }

    // ---- shutdown ----

    @ParameterizedTest
    @EnumSource(Implementations.class)
    void afterShutdownEverySubmissionIsRejected(Implementations impl) throws Exception {
        ScheduledExecutorService executor = start(impl);
        executor.shutdown();
        assertThat(executor.isShutdown()).isTrue();
        assertThat(executor.awaitTermination(WAIT_SECONDS, SECONDS)).isTrue();
        assertThat(executor.isTerminated()).isTrue();
        Runnable task = () -> {};
        List<org.assertj.core.api.ThrowableAssert.ThrowingCallable> calls = List.of(
                () -> executor.execute(task),
                () -> executor.submit(task),
                () -> executor.submit(() -> 1),
                () -> executor.submit(task, 1),
                () -> executor.schedule(task, 1, SECONDS),
                () -> executor.schedule(() -> 1, 1, SECONDS),
                () -> executor.scheduleAtFixedRate(task, 1, 1, SECONDS),
                () -> executor.scheduleWithFixedDelay(task, 1, 1, SECONDS),
                () -> executor.invokeAll(List.of(() -> 1)),
                () -> executor.invokeAny(List.of(() -> 1)));
        for (org.assertj.core.api.ThrowableAssert.ThrowingCallable call : calls) {
            assertThatThrownBy(call).isInstanceOf(RejectedExecutionException.class);
        }
        executor.shutdown(); // a second shutdown changes nothing
        assertThat(executor.isTerminated()).isTrue();
    }

    @ParameterizedTest
    @EnumSource(Implementations.class)
    void byDefaultShutdownRunsDelayedTasksAndCancelsPeriodicOnes(Implementations impl) throws Exception {
        ScheduledExecutorService executor = start(impl);
        ScheduledFuture<String> delayed = executor.schedule(() -> "ran", 50, MILLISECONDS);
        ScheduledFuture<?> periodic = executor.scheduleAtFixedRate(() -> {}, 1, 1, HOURS);
        executor.shutdown();
        assertThat(periodic.isCancelled()).isTrue();
        assertThat(executor.isTerminated()).as("the delayed task holds it").isFalse();
        assertThat(delayed.get(WAIT_SECONDS, SECONDS)).isEqualTo("ran");
        assertThat(executor.awaitTermination(WAIT_SECONDS, SECONDS)).isTrue();
    }

    @ParameterizedTest
    @EnumSource(Implementations.class)
    void shutdownCancelsDelayedTasksWhenTheirPolicySaysSo(Implementations impl) throws Exception {
        ScheduledExecutorService executor = start(impl, false, false);
        ScheduledFuture<String> delayed = executor.schedule(() -> "ran", 1, HOURS);
        executor.shutdown();
        assertThat(delayed.isCancelled()).isTrue();
        assertThat(executor.awaitTermination(WAIT_SECONDS, SECONDS)).isTrue();
    }

    @ParameterizedTest
    @EnumSource(Implementations.class)
    void periodicTasksGoOnAfterShutdownWhenTheirPolicySaysSo(Implementations impl) throws Exception {
        ScheduledExecutorService executor = start(impl, true, true);
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch firstRun = new CountDownLatch(1);
        ScheduledFuture<?> periodic = executor.scheduleWithFixedDelay(
                () -> {
                    runs.incrementAndGet();
                    firstRun.countDown();
                },
                0,
                1,
                MILLISECONDS);
        await(firstRun, "the first run");
        executor.shutdown();
        int atShutdown = runs.get();
        while (runs.get() < atShutdown + 3) {
            Thread.sleep(1); // three more runs after shutdown, however long the machine takes
        }
        assertThat(periodic.isDone()).isFalse();
        assertThat(executor.isTerminated()).isFalse();
        assertThat(periodic.cancel(false)).isTrue();
        assertThat(executor.awaitTermination(WAIT_SECONDS, SECONDS)).isTrue();
    }

    @ParameterizedTest
    @EnumSource(Implementations.class)
    void shutdownNowReturnsWhatNeverRanAndInterruptsWhatRuns(Implementations impl) throws Exception {
        ScheduledExecutorService executor = start(impl);
        Blocker blocker = new Blocker();
        Future<String> running = executor.submit(blocker);
        await(blocker.started, "the blocking task started");
        ScheduledFuture<?> far = executor.schedule(() -> {}, 1, HOURS);
        ScheduledFuture<?> periodic = executor.scheduleAtFixedRate(() -> {}, 1, 1, HOURS);
        List<Runnable> neverRan = executor.shutdownNow();
        assertThat(neverRan).containsExactlyInAnyOrder((Runnable) far, (Runnable) periodic);
        // As the JDK leaves them: not cancelled, not done; the caller decides.
        assertThat(far.isDone()).isFalse();
        assertThat(periodic.isDone()).isFalse();
        await(blocker.ended, "the interrupted task ended");
        assertThat(blocker.interrupted).isTrue();
        assertThat(running.get()).as("it returned normally after the interrupt").isEqualTo("released");
        assertThat(executor.awaitTermination(WAIT_SECONDS, SECONDS)).isTrue();
        assertThat(executor.shutdownNow()).as("a second shutdownNow").isEmpty();
        // Running a returned task after shutdownNow cancels it, as the JDK's does.
        neverRan.get(0).run();
        assertThat(((Future<?>) neverRan.get(0)).isCancelled()).isTrue();
    }

    @ParameterizedTest
    @EnumSource(Implementations.class)
    void awaitTerminationTimesOutWhileRunning(Implementations impl) throws Exception {
        ScheduledExecutorService executor = start(impl);
        assertThat(executor.awaitTermination(1, MILLISECONDS)).isFalse();
        assertThat(executor.isShutdown()).isFalse();
        assertThat(executor.isTerminated()).isFalse();
        Blocker blocker = new Blocker();
        executor.submit(blocker);
        await(blocker.started, "the task started");
        executor.shutdown();
        assertThat(executor.awaitTermination(1, MILLISECONDS))
                .as("a running task holds it")
                .isFalse();
        blocker.release.countDown();
        assertThat(executor.awaitTermination(WAIT_SECONDS, SECONDS)).isTrue();
    }

    // ---- invokeAll, invokeAny ----

    @ParameterizedTest
    @EnumSource(Implementations.class)
    void invokeAllReturnsEveryFutureDoneInOrder(Implementations impl) throws Exception {
        ScheduledExecutorService executor = start(impl);
        List<Future<String>> all = executor.invokeAll(List.of(
                () -> "a",
                () -> {
                    throw new IllegalStateException("b");
                },
                () -> "c"));
        assertThat(all).hasSize(3).allMatch(Future::isDone);
        assertThat(all.get(0).get()).isEqualTo("a");
        assertThatThrownBy(() -> all.get(1).get()).isInstanceOf(ExecutionException.class);
        assertThat(all.get(2).get()).isEqualTo("c");
    }

    @ParameterizedTest
    @EnumSource(Implementations.class)
    void timedInvokeAllCancelsWhatIsNotDone(Implementations impl) throws Exception {
        ScheduledExecutorService executor = start(impl);
        Blocker blocker = new Blocker();
        List<Future<String>> all =
                executor.invokeAll(List.<Callable<String>>of(() -> "quick", blocker), 50, MILLISECONDS);
        assertThat(all).hasSize(2).allMatch(Future::isDone);
        assertThat(all.get(1).isCancelled()).isTrue();
        blocker.release.countDown();
    }

    @ParameterizedTest
    @EnumSource(Implementations.class)
    void invokeAnyReturnsASuccessOrFailsWhenAllFail(Implementations impl) throws Exception {
        ScheduledExecutorService executor = start(impl);
        Callable<String> fails = () -> {
            throw new IllegalStateException("no");
        };
        assertThat(executor.invokeAny(List.of(fails, () -> "yes", fails))).isEqualTo("yes");
        assertThat(executor.invokeAny(List.of(fails, () -> "timed"), WAIT_SECONDS, SECONDS))
                .isEqualTo("timed");
        assertThatThrownBy(() -> executor.invokeAny(List.of(fails, fails))).isInstanceOf(ExecutionException.class);
        Blocker blocker = new Blocker();
        assertThatThrownBy(() -> executor.invokeAny(List.of(blocker), 20, MILLISECONDS))
                .isInstanceOf(TimeoutException.class);
        blocker.release.countDown();
    }

    // ---- close (Java 19's ExecutorService.close; the JDK's executor has it from Java 19) ----

    @ParameterizedTest
    @EnumSource(Implementations.class)
    void closeWaitsForTheDelayedTasksThenTerminates(Implementations impl) throws Exception {
        ScheduledExecutorService executor = start(impl);
        org.junit.jupiter.api.Assumptions.assumeTrue(
                executor instanceof AutoCloseable, "ExecutorService.close() needs Java 19 on the JDK's executor");
        ScheduledFuture<String> delayed = executor.schedule(() -> "ran", 50, MILLISECONDS);
        ScheduledFuture<?> periodic = executor.scheduleAtFixedRate(() -> {}, 1, 1, HOURS);
        ((AutoCloseable) executor).close();
        assertThat(executor.isTerminated()).isTrue();
        assertThat(delayed.get(0, SECONDS)).isEqualTo("ran");
        assertThat(periodic.isCancelled()).isTrue();
        ((AutoCloseable) executor).close(); // closing a terminated executor does nothing
    }

    @ParameterizedTest
    @EnumSource(Implementations.class)
    void anInterruptedCloseStopsEverythingAndKeepsTheInterrupt(Implementations impl) throws Exception {
        ScheduledExecutorService executor = start(impl);
        org.junit.jupiter.api.Assumptions.assumeTrue(
                executor instanceof AutoCloseable, "ExecutorService.close() needs Java 19 on the JDK's executor");
        Blocker blocker = new Blocker();
        executor.submit(blocker);
        await(blocker.started, "the task started");
        ScheduledFuture<?> far = executor.schedule(() -> {}, 1, HOURS);
        Thread.currentThread().interrupt();
        try {
            ((AutoCloseable) executor).close();
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
        assertThat(executor.isTerminated()).isTrue();
        assertThat(blocker.interrupted).isTrue();
        assertThat(far.isDone()).as("drained, as by shutdownNow").isFalse();
    }

    // ---- bad input ----

    @ParameterizedTest
    @EnumSource(Implementations.class)
    void badArgumentsAreRefused(Implementations impl) {
        ScheduledExecutorService executor = start(impl);
        Runnable task = () -> {};
        assertThatThrownBy(() -> executor.execute(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> executor.schedule((Runnable) null, 1, SECONDS))
                .isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> executor.schedule(task, 1, null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> executor.scheduleAtFixedRate(task, 1, 0, SECONDS))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> executor.scheduleWithFixedDelay(task, 1, -1, SECONDS))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
