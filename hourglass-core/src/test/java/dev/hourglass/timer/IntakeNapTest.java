package dev.hourglass.timer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hourglass.time.ManualNanoClock;
import dev.hourglass.time.NanoClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Messages from other threads that can wait a nap ({@link TimerDriver#NAP_NANOS}: cancels, far
 * schedules and earlier moves) let the loop sleep until the nap ends instead of turning again for each,
 * so a busy caller's messages are taken in batches; a message due sooner than that makes the loop
 * turn again at once. Driven by hand: the test thread is the loop; the time is set by the test, on
 * a clock that says it flows, as naps need one.
 */
class IntakeNapTest {

    private static final long NAP = TimerDriver.NAP_NANOS;

    private final AtomicLong time = new AtomicLong();
    private final NanoClock clock = time::get;
    private final TimerDriver driver = Timers.builder().clock(clock).buildDriver(() -> {});

    /** Runs {@code call} on a thread that is not the driver's. */
    private static <T> T elsewhere(Supplier<T> call) {
        return CompletableFuture.supplyAsync(call).join();
    }

    private Timeout scheduleElsewhere(long delayNanos) {
        return elsewhere(() -> driver.schedule(() -> {}, delayNanos, TimeUnit.NANOSECONDS));
    }

    /** What the loop does after a turn: true if it may sleep until the returned deadline. */
    private boolean maySleepUntil(long deadline) {
        boolean sleeps = driver.prepareToSleep(false, deadline);
        if (sleeps) {
            driver.awake();
        }
        return sleeps;
    }

    @AfterEach
    void stop() {
        driver.shutdown();
    }

    @Test
    void messagesThatCanWaitLetTheLoopNapUntilTheirBatchIsDue() {
        driver.bind();
        Timeout filed = scheduleElsewhere(Duration.ofSeconds(10).toNanos());
        driver.turn(); // the first turn's reading is the queue's start, 0
        assertThat(maySleepUntil(driver.nextDeadline())).isTrue();

        scheduleElsewhere(Duration.ofSeconds(20).toNanos());
        assertThat(elsewhere(filed::cancel)).isTrue();
        assertThat(driver.nextDeadline())
                .as("with messages waiting, the loop sleeps at most a nap past the previous turn's reading")
                .isEqualTo(NAP);
        assertThat(maySleepUntil(NAP))
                .as("far schedules and cancels wait for the nap")
                .isTrue();
        assertThat(driver.stats().cancelled()).isZero();

        time.addAndGet(NAP);
        driver.turn();
        assertThat(driver.stats().cancelled()).as("taken in when the nap ends").isOne();
        assertThat(driver.stats().pending()).isOne();
    }

    @Test
    void aMessageDueWithinTheNapMakesTheLoopTurnAgain() {
        driver.bind();
        scheduleElsewhere(Duration.ofSeconds(10).toNanos());
        driver.turn();

        scheduleElsewhere(NAP - 1);
        assertThat(maySleepUntil(driver.nextDeadline())).isFalse();
        driver.turn();
        assertThat(maySleepUntil(driver.nextDeadline()))
                .as("the flag is cleared by the turn")
                .isTrue();
        assertThat(driver.stats().pending()).isEqualTo(2);
    }

    @Test
    void aWaitingTimeoutMovedToWithinTheNapMakesTheLoopTurnAgain() {
        driver.bind();
        scheduleElsewhere(Duration.ofSeconds(10).toNanos());
        driver.turn();
        Timeout waiting = scheduleElsewhere(Duration.ofSeconds(20).toNanos());
        assertThat(maySleepUntil(driver.nextDeadline())).isTrue();

        assertThat(elsewhere(() -> waiting.reschedule(NAP / 2, TimeUnit.NANOSECONDS)))
                .isTrue();
        assertThat(maySleepUntil(driver.nextDeadline()))
                .as("on the intake already, moved to within the nap: no nap")
                .isFalse();
    }

    @Test
    void aMessageAfterTheLastLookAtTheIntakeStopsALongerSleep() {
        driver.bind();
        scheduleElsewhere(Duration.ofSeconds(10).toNanos());
        driver.turn();
        long deadline = driver.nextDeadline();
        assertThat(deadline).as("nothing waits: no nap").isGreaterThan(NAP);

        scheduleElsewhere(Duration.ofSeconds(20).toNanos());
        assertThat(maySleepUntil(deadline))
                .as("the message came after the deadline was chosen; it may not wait that long")
                .isFalse();
        assertThat(maySleepUntil(driver.nextDeadline())).isTrue();
    }

    @Test
    void anIdleLoopNeverSleepsWithMessagesWaiting() {
        driver.bind();
        scheduleElsewhere(Duration.ofSeconds(10).toNanos());
        assertThat(driver.hasTimers()).isFalse();
        assertThat(driver.prepareToSleep(true, 0))
                .as("an idle sleep has no end")
                .isFalse();
    }

    @Test
    void theNapCountsFromThePreviousTurnsReading() {
        driver.bind();
        scheduleElsewhere(Duration.ofSeconds(10).toNanos());
        driver.turn();
        time.addAndGet(NAP / 2);
        driver.turn();
        scheduleElsewhere(Duration.ofSeconds(20).toNanos());
        assertThat(driver.nextDeadline())
                .as("this turn's reading came after its take: a message made just before it waits no later")
                .isEqualTo(NAP);
    }

    @Test
    void aFiledTimeoutMovedToWithinTheNapMakesTheLoopTurnAgain() {
        driver.bind();
        Timeout filed = scheduleElsewhere(Duration.ofSeconds(10).toNanos());
        driver.turn();
        scheduleElsewhere(Duration.ofSeconds(20).toNanos());
        assertThat(elsewhere(() -> filed.reschedule(NAP / 2, TimeUnit.NANOSECONDS)))
                .isTrue();
        assertThat(maySleepUntil(driver.nextDeadline())).isFalse();
    }

    @Test
    void anEarlierRescheduleAtIsUrgentOnlyWhenItsDeadlineIsWithinANapOfTheClock() {
        driver.bind();
        Timeout near = scheduleElsewhere(Duration.ofSeconds(10).toNanos());
        Timeout far = scheduleElsewhere(Duration.ofSeconds(20).toNanos());
        long now = Duration.ofSeconds(5).toNanos();
        time.set(now);
        driver.turn();

        assertThat(elsewhere(() -> far.rescheduleAt(now + Duration.ofSeconds(2).toNanos())))
                .isTrue();
        assertThat(maySleepUntil(driver.nextDeadline()))
                .as("13 s earlier, but 2 s ahead of the clock: it waits for the nap")
                .isTrue();
        assertThat(elsewhere(() -> near.rescheduleAt(now + NAP / 2))).isTrue();
        assertThat(maySleepUntil(driver.nextDeadline()))
                .as("half a nap ahead of the clock: no nap")
                .isFalse();
    }

    @Test
    void aPeriodicRunEndingOnAnExecutorMakesTheLoopTurnAgain() {
        List<Runnable> runs = new ArrayList<>();
        TimerDriver withExecutor =
                Timers.builder().clock(clock).executor(runs::add).buildDriver(() -> {});
        withExecutor.bind();
        elsewhere(() -> withExecutor.scheduleAtFixedRate(() -> {}, NAP / 2, NAP / 2, TimeUnit.NANOSECONDS));
        withExecutor.turn();
        time.addAndGet(NAP);
        withExecutor.turn();
        assertThat(runs).hasSize(1);
        withExecutor.schedule(() -> {}, 10, TimeUnit.SECONDS);
        elsewhere(() -> {
            runs.get(0).run();
            return null;
        });
        assertThat(withExecutor.prepareToSleep(false, withExecutor.nextDeadline()))
                .as("the next run, due within the nap, is re-armed through the intake")
                .isFalse();
        withExecutor.shutdown();
    }

    @Test
    void underAClockThatDoesNotFlowTheLoopTakesEveryMessageAtOnce() {
        TimerDriver manual = Timers.builder().clock(new ManualNanoClock(0)).buildDriver(() -> {});
        manual.bind();
        elsewhere(() -> manual.schedule(() -> {}, 10, TimeUnit.SECONDS));
        manual.turn();
        elsewhere(() -> manual.schedule(() -> {}, 20, TimeUnit.SECONDS));
        assertThat(manual.prepareToSleep(false, manual.nextDeadline()))
                .as("a nap would last until the clock jumps")
                .isFalse();
        manual.shutdown();
    }

    @Test
    void messagesDuringANapWakeTheLoopNeverButDuringALongerSleepNowAndThen() {
        AtomicInteger wakes = new AtomicInteger();
        TimerDriver woken = Timers.builder().clock(clock).buildDriver(wakes::incrementAndGet);
        try {
            wakesOnlyOutsideNaps(woken, wakes);
        } finally {
            woken.shutdown();
        }
    }

    private void wakesOnlyOutsideNaps(TimerDriver woken, AtomicInteger wakes) {
        woken.bind();
        elsewhere(() -> woken.schedule(() -> {}, 10, TimeUnit.SECONDS));
        woken.turn();
        // 32 times the mean gap between random wakes: a run without one comes once in e^32.
        int count = 32 * TimerDriver.WAKE_EVERY;
        Supplier<Object> laterMessages = () -> {
            for (int i = 0; i < count; i++) {
                woken.schedule(() -> {}, Duration.ofSeconds(20).toNanos() + i, TimeUnit.NANOSECONDS);
            }
            return null;
        };

        elsewhere(() -> woken.schedule(() -> {}, 20, TimeUnit.SECONDS));
        assertThat(woken.prepareToSleep(false, woken.nextDeadline())).isTrue();
        assertThat(woken.nextDeadline()).as("a nap").isEqualTo(NAP);
        elsewhere(laterMessages);
        assertThat(wakes)
                .as("wakes of a loop that sleeps a nap at most: it takes the messages then")
                .hasValue(0);
        woken.awake();

        time.addAndGet(NAP);
        woken.turn();
        long far = woken.nextDeadline();
        assertThat(far).as("nothing waits: no nap").isGreaterThan(2 * NAP);
        assertThat(woken.prepareToSleep(false, far)).isTrue();
        elsewhere(laterMessages);
        assertThat(wakes)
                .as("wakes of a loop that sleeps towards a far deadline, so that messages do not pile up")
                .hasPositiveValue();
        woken.awake();
    }
}
