package dev.hourglass.timer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hourglass.time.ManualNanoClock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * What each operation from another thread hands to the driver (issue 11, item 2): a later
 * reschedule only writes the deadline; an earlier one and a cancel put the timeout on the intake,
 * once however often they are repeated before the driver takes it; a later {@code rescheduleAt}
 * does not even read the clock.
 */
class HandOffCostTest {

    private final ManualNanoClock clock = new ManualNanoClock(0);
    private final AtomicInteger readings = new AtomicInteger();

    /** The manual clock, counting its readings; it flows (naps on), which these turns by hand ignore. */
    private final TimerDriver driver = Timers.builder()
            .clock(() -> {
                readings.incrementAndGet();
                return clock.nanoTime();
            })
            .buildDriver(() -> {});

    /** Runs {@code call} on a thread that is not the driver's. */
    private static <T> T elsewhere(Supplier<T> call) {
        return CompletableFuture.supplyAsync(call).join();
    }

    private static boolean queued(Timeout timeout) {
        return (((TimeoutNode) timeout).state() & TimeoutNode.QUEUED) != 0;
    }

    @Test
    void onlyEarlierMovesAndCancelsReachTheDriver() {
        driver.bind();
        Timeout timeout = elsewhere(() -> driver.schedule(() -> {}, Duration.ofSeconds(10)));
        assertThat(queued(timeout)).as("a schedule hands the timeout over").isTrue();
        driver.turn();
        assertThat(queued(timeout)).isFalse();

        assertThat(elsewhere(() -> timeout.reschedule(Duration.ofSeconds(20)))).isTrue();
        assertThat(queued(timeout)).as("a later move hands nothing over").isFalse();

        assertThat(elsewhere(() -> timeout.reschedule(Duration.ofSeconds(5)))).isTrue();
        assertThat(queued(timeout)).as("an earlier move hands the timeout over").isTrue();
        assertThat(elsewhere(() -> timeout.reschedule(Duration.ofSeconds(1)))).isTrue();
        assertThat(elsewhere(timeout::cancel)).isTrue();
        driver.turn();
        assertThat(driver.stats().cancelled())
                .as("taken once, however often it was handed over")
                .isOne();
        assertThat(queued(timeout))
                .as("a cancel taken in costs the driver no read-modify-write: nothing clears the bit")
                .isTrue();
        assertThat(elsewhere(timeout::cancel))
                .as("cancelled already: nothing handed over")
                .isFalse();
        driver.turn();
        assertThat(driver.stats().cancelled()).isOne();
        assertThat(driver.hasTimers()).isFalse();
        driver.shutdown();
    }

    /** Runs {@code call} elsewhere and returns how often it read the clock; it must return true. */
    private int readingsOf(Supplier<Boolean> call) {
        int before = readings.get();
        assertThat(elsewhere(call)).isTrue();
        return readings.get() - before;
    }

    @Test
    void aLaterRescheduleAtReadsNoClockAndHandsNothingOver() {
        driver.bind();
        Timeout timeout = elsewhere(() -> driver.schedule(() -> {}, Duration.ofSeconds(10)));
        driver.turn();
        long base = clock.nanoTime();

        assertThat(readingsOf(
                        () -> timeout.rescheduleAt(base + Duration.ofSeconds(20).toNanos())))
                .as("clock readings of a later move to a given deadline")
                .isZero();
        assertThat(queued(timeout)).as("a later move hands nothing over").isFalse();
        assertThat(readingsOf(() -> timeout.reschedule(Duration.ofSeconds(30))))
                .as("a move by a delay reads the clock once")
                .isOne();

        assertThat(readingsOf(
                        () -> timeout.rescheduleAt(base + Duration.ofSeconds(5).toNanos())))
                .as("an earlier move reads it to tell whether it is urgent")
                .isOne();
        assertThat(queued(timeout)).as("an earlier move hands the timeout over").isTrue();
        driver.turn();
        clock.advance(Duration.ofSeconds(5).toNanos());
        driver.turn();
        assertThat(driver.stats().fired()).isOne();
        assertThat(driver.hasTimers()).isFalse();
        driver.shutdown();
    }
}
