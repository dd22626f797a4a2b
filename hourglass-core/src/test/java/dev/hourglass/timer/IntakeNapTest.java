package dev.hourglass.timer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hourglass.time.ManualNanoClock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Messages from other threads that can wait a nap ({@link TimerDriver#NAP_NANOS}: far schedules,
 * cancels, later moves) let the loop sleep until the nap ends instead of turning again for each,
 * so a busy caller's messages are taken in batches; a message due sooner than that makes the loop
 * turn again at once. Driven by hand: the test thread is the loop, a manual clock the time.
 */
class IntakeNapTest {

    private static final long NAP = TimerDriver.NAP_NANOS;

    private final ManualNanoClock clock = new ManualNanoClock(0);
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
                .as("with messages waiting, the loop sleeps at most a nap past its last reading")
                .isEqualTo(NAP);
        assertThat(maySleepUntil(NAP))
                .as("far schedules and cancels wait for the nap")
                .isTrue();
        assertThat(driver.stats().cancelled()).isZero();

        clock.advance(NAP);
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
}
