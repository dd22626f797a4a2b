package dev.hourglass.netty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hourglass.time.ManualNanoClock;
import dev.hourglass.timer.TimerBuilder;
import dev.hourglass.timer.Timers;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import io.netty.util.TimerTask;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Every method of Netty's {@link Timer} and {@link Timeout} on the adapter, as Netty 4.2's {@code
 * HashedWheelTimer} documents them, under a {@link ManualNanoClock}: the test moves the clock, then
 * waits for a zero-delay probe, which runs only after everything due at the clock's time.
 */
@org.junit.jupiter.api.Timeout(60)
class NettyTimerTest {

    private static final long START = Long.MAX_VALUE - 1_000_000_000L; // runs past the wrap
    private static final long AWAIT_SECONDS = 10;

    private final ManualNanoClock clock = new ManualNanoClock(START);
    private final List<Throwable> reported = new CopyOnWriteArrayList<>();
    private final List<Thread> driverThreads = new CopyOnWriteArrayList<>();
    private final List<dev.hourglass.timer.Timer> hourglassTimers = new ArrayList<>();
    private dev.hourglass.timer.Timer hourglass;

    private Timer start() {
        return start(builder -> {});
    }

    private Timer start(Consumer<TimerBuilder> configure) {
        TimerBuilder builder = Timers.builder()
                .clock(clock)
                .tick(Duration.ofMillis(1))
                .threadFactory(task -> {
                    Thread thread = new Thread(task, "netty-adapter-test");
                    thread.setDaemon(true);
                    driverThreads.add(thread);
                    return thread;
                })
                .exceptionHandler((timeout, error) -> reported.add(error));
        configure.accept(builder);
        hourglass = builder.startTimerThread();
        hourglassTimers.add(hourglass);
        return NettyTimers.wrap(hourglass);
    }

    @AfterEach
    void stopTimers() {
        hourglassTimers.forEach(dev.hourglass.timer.Timer::close);
    }

    /** Returns once the driver has run everything due at the clock's present time. */
    private void settle() throws InterruptedException {
        CountDownLatch probe = new CountDownLatch(1);
        hourglass.schedule(probe::countDown, Duration.ZERO);
        assertThat(probe.await(AWAIT_SECONDS, TimeUnit.SECONDS))
                .as("the settling probe ran")
                .isTrue();
    }

    /** A Netty task that records its runs and its cancellations, with the thread of each. */
    private static final class Recorder implements TimerTask {
        final List<Timeout> runs = new CopyOnWriteArrayList<>();
        final List<Timeout> cancellations = new CopyOnWriteArrayList<>();
        final List<Thread> threads = new CopyOnWriteArrayList<>();

        @Override
        public void run(Timeout timeout) {
            runs.add(timeout);
            threads.add(Thread.currentThread());
        }

        @Override
        public void cancelled(Timeout timeout) {
            cancellations.add(timeout);
            threads.add(Thread.currentThread());
        }
    }

    @Test
    void aTimeoutRunsOnceAtItsDeadlineNeverBeforeAndIsThenExpired() throws InterruptedException {
        Timer timer = start();
        Recorder task = new Recorder();
        Timeout timeout = timer.newTimeout(task, 100, TimeUnit.MILLISECONDS);

        assertThat(timeout.timer()).isSameAs(timer);
        assertThat(timeout.task()).isSameAs(task);
        clock.advance(Duration.ofMillis(99));
        settle();
        assertThat(task.runs).isEmpty();
        assertThat(timeout.isExpired()).isFalse();
        assertThat(timeout.isCancelled()).isFalse();

        clock.advance(Duration.ofMillis(1));
        settle();
        assertThat(task.runs).containsExactly(timeout);
        assertThat(task.threads).containsExactlyElementsOf(driverThreads);
        assertThat(timeout.isExpired()).isTrue();
        assertThat(timeout.isCancelled()).isFalse();
        assertThat(timeout.cancel()).as("cancel after the run").isFalse();
        settle();
        assertThat(task.cancellations).isEmpty();
        assertThat(timeout.isCancelled()).isFalse();
    }

    @Test
    void aDelayOfZeroOrLessRunsAtOnceAndAHugeOneNeverOverflows() throws InterruptedException {
        Timer timer = start();
        Recorder now = new Recorder();
        Recorder past = new Recorder();
        Recorder far = new Recorder();
        timer.newTimeout(now, 0, TimeUnit.NANOSECONDS);
        timer.newTimeout(past, -5, TimeUnit.SECONDS);
        Timeout never = timer.newTimeout(far, Long.MAX_VALUE, TimeUnit.DAYS);
        settle();
        assertThat(now.runs).hasSize(1);
        assertThat(past.runs).hasSize(1);
        clock.advance(Duration.ofDays(365));
        settle();
        assertThat(far.runs).isEmpty();
        assertThat(never.isExpired()).isFalse();
    }

    @Test
    void cancelStopsTheTaskAndTellsItOnceOnTheTimersThread() throws InterruptedException {
        Timer timer = start();
        Recorder task = new Recorder();
        Timeout timeout = timer.newTimeout(task, 1, TimeUnit.SECONDS);

        assertThat(timeout.cancel()).isTrue();
        assertThat(timeout.isCancelled()).isTrue();
        assertThat(timeout.isExpired()).isFalse();
        assertThat(timeout.cancel()).as("a second cancel").isFalse();
        settle();
        assertThat(task.cancellations).containsExactly(timeout);
        assertThat(task.threads).containsExactlyElementsOf(driverThreads);

        clock.advance(Duration.ofSeconds(2));
        settle();
        assertThat(task.runs).isEmpty();
        assertThat(task.cancellations).hasSize(1);
    }

    @Test
    void aTaskMayCancelAnotherAndAskAboutItself() throws InterruptedException {
        Timer timer = start();
        Recorder victim = new Recorder();
        Timeout later = timer.newTimeout(victim, 20, TimeUnit.MILLISECONDS);
        List<Object> seen = new CopyOnWriteArrayList<>();
        Timeout first = timer.newTimeout(
                self -> {
                    seen.add(self.isExpired());
                    seen.add(self.isCancelled());
                    seen.add(self.cancel());
                    seen.add(later.cancel());
                },
                10,
                TimeUnit.MILLISECONDS);
        settle(); // both filed before the clock moves: overdue timeouts taken in late run in intake order
        clock.advance(Duration.ofMillis(30));
        settle();
        assertThat(seen).containsExactly(true, false, false, true);
        assertThat(first.isExpired()).isTrue();
        assertThat(victim.runs).isEmpty();
        assertThat(victim.cancellations).containsExactly(later);
    }

    @Test
    void newTimeoutRefusesNullsNamingThem() {
        Timer timer = start();
        assertThatThrownBy(() -> timer.newTimeout(null, 1, TimeUnit.SECONDS))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("task");
        assertThatThrownBy(() -> timer.newTimeout(new Recorder(), 1, null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("unit");
        assertThatThrownBy(() -> NettyTimers.wrap(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("timer");
    }

    @Test
    void stopReturnsTheUnexpiredTimeoutsCancelledAndRefusesNewOnes() throws InterruptedException {
        Timer timer = start();
        Recorder ran = new Recorder();
        Recorder cancelled = new Recorder();
        Recorder pending = new Recorder();
        Timeout fired = timer.newTimeout(ran, 1, TimeUnit.MILLISECONDS);
        Timeout gone = timer.newTimeout(cancelled, 1, TimeUnit.SECONDS);
        Timeout a = timer.newTimeout(pending, 1, TimeUnit.SECONDS);
        Timeout b = timer.newTimeout(pending, 1, TimeUnit.HOURS);
        gone.cancel();
        clock.advance(Duration.ofMillis(1));
        settle();

        Set<Timeout> unexpired = timer.stop();
        assertThat(unexpired).containsExactlyInAnyOrder(a, b);
        for (Timeout timeout : unexpired) {
            assertThat(timeout.isCancelled()).isTrue();
            assertThat(timeout.isExpired()).isFalse();
            assertThat(timeout.cancel()).isFalse();
        }
        assertThat(fired.isExpired()).isTrue();
        assertThat(pending.cancellations)
                .as("Netty tells no task cancelled by stop()")
                .isEmpty();
        assertThat(timer.stop()).as("a second stop").isEmpty();
        assertThatThrownBy(() -> timer.newTimeout(new Recorder(), 1, TimeUnit.SECONDS))
                .isInstanceOf(IllegalStateException.class);
        assertThat(pending.runs).isEmpty();
    }

    @Test
    void stopFromATaskThrowsIllegalStateAndTheTimerGoesOn() throws InterruptedException {
        Timer timer = start();
        List<Throwable> thrown = new CopyOnWriteArrayList<>();
        timer.newTimeout(
                self -> {
                    try {
                        self.timer().stop();
                    } catch (Throwable e) {
                        thrown.add(e);
                    }
                },
                0,
                TimeUnit.MILLISECONDS);
        settle();
        assertThat(thrown).singleElement().isInstanceOf(IllegalStateException.class);
        Recorder after = new Recorder();
        timer.newTimeout(after, 5, TimeUnit.MILLISECONDS);
        clock.advance(Duration.ofMillis(5));
        settle();
        assertThat(after.runs).hasSize(1);
        assertThat(hourglass.isClosed()).isFalse();
    }

    @Test
    void beyondThePendingLimitNewTimeoutIsRejectedUntilOneRunsOrIsCancelled() throws InterruptedException {
        start();
        Timer timer = NettyTimers.wrap(hourglass, 2);
        Timeout first = timer.newTimeout(new Recorder(), 1, TimeUnit.SECONDS);
        timer.newTimeout(new Recorder(), 5, TimeUnit.MILLISECONDS);
        assertThatThrownBy(() -> timer.newTimeout(new Recorder(), 1, TimeUnit.SECONDS))
                .isInstanceOf(RejectedExecutionException.class)
                .hasMessage("pending limit of 2 Netty timeouts reached");
        hourglass.schedule(() -> {}, Duration.ofSeconds(1)); // not the Netty timer's: not counted

        assertThat(first.cancel()).isTrue();
        Timeout third = timer.newTimeout(new Recorder(), 1, TimeUnit.SECONDS); // the cancel freed a place at once
        assertThat(first.cancel()).as("a second cancel frees nothing").isFalse();
        assertThatThrownBy(() -> timer.newTimeout(new Recorder(), 1, TimeUnit.SECONDS))
                .isInstanceOf(RejectedExecutionException.class);

        clock.advance(Duration.ofMillis(5));
        settle();
        Recorder fourth = new Recorder();
        timer.newTimeout(fourth, 0, TimeUnit.SECONDS); // the run freed one
        settle();
        assertThat(fourth.runs).hasSize(1);
        assertThat(third.isExpired()).isFalse();
    }

    @Test
    void theHourglassTimersOwnLimitAlsoRejects() {
        Timer timer = start(builder -> builder.maxPending(1));
        timer.newTimeout(new Recorder(), 1, TimeUnit.SECONDS);
        assertThatThrownBy(() -> timer.newTimeout(new Recorder(), 1, TimeUnit.SECONDS))
                .isInstanceOf(RejectedExecutionException.class)
                .hasMessageContaining("1");
    }

    @Test
    void aRejectedOrRefusedTimeoutTakesNoPlaceUnderTheLimit() {
        start(builder -> builder.maxPending(1));
        Timer timer = NettyTimers.wrap(hourglass, 2);
        timer.newTimeout(new Recorder(), 1, TimeUnit.SECONDS);
        for (int i = 0; i < 3; i++) { // refused by the Hourglass timer's own limit each time
            assertThatThrownBy(() -> timer.newTimeout(new Recorder(), 1, TimeUnit.SECONDS))
                    .isInstanceOf(RejectedExecutionException.class)
                    .hasMessageNotContaining("Netty");
        }
    }

    @Test
    void aTaskExceptionIsReportedAndNotFatal() throws InterruptedException {
        Timer timer = start();
        IllegalStateException boom = new IllegalStateException("boom");
        timer.newTimeout(
                self -> {
                    throw boom;
                },
                1,
                TimeUnit.MILLISECONDS);
        Recorder next = new Recorder();
        timer.newTimeout(next, 2, TimeUnit.MILLISECONDS);
        clock.advance(Duration.ofMillis(2));
        settle();
        assertThat(reported).containsExactly(boom);
        assertThat(next.runs).hasSize(1);
    }

    @Test
    void aCancelledCallbackThatThrowsIsReportedAndNotFatal() throws InterruptedException {
        Timer timer = start();
        IllegalStateException boom = new IllegalStateException("cancelled threw");
        Timeout timeout = timer.newTimeout(
                new TimerTask() {
                    @Override
                    public void run(Timeout self) {}

                    @Override
                    public void cancelled(Timeout self) {
                        throw boom;
                    }
                },
                1,
                TimeUnit.SECONDS);
        timeout.cancel();
        settle();
        assertThat(reported).containsExactly(boom);
        Recorder next = new Recorder();
        timer.newTimeout(next, 0, TimeUnit.MILLISECONDS);
        settle();
        assertThat(next.runs).hasSize(1);
    }

    @Test
    void onASharedHourglassTimerStopReturnsOnlyTheNettyTimeoutsAndStopsTheTimer() {
        Timer timer = start();
        Timeout netty = timer.newTimeout(new Recorder(), 1, TimeUnit.SECONDS);
        dev.hourglass.timer.Timeout own = hourglass.schedule(() -> {}, Duration.ofSeconds(1));
        assertThat(timer.stop()).containsExactly(netty);
        assertThat(hourglass.isClosed())
                .as("the adapter owns the Hourglass timer")
                .isTrue();
        assertThat(own.isCancelled()).isTrue();
    }

    @Test
    void toStringNamesTheTaskAndTheState() {
        Timer timer = start();
        TimerTask task = new TimerTask() {
            @Override
            public void run(Timeout timeout) {}

            @Override
            public String toString() {
                return "the task";
            }
        };
        Timeout timeout = timer.newTimeout(task, 1, TimeUnit.SECONDS);
        assertThat(timeout).hasToString("NettyTimeout(the task)");
        timeout.cancel();
        assertThat(timeout).hasToString("NettyTimeout(the task, cancelled)");
        assertThat(timer.toString()).startsWith("HourglassNettyTimer(");
    }
}
