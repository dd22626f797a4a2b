package dev.hourglass.timer;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.NANOSECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hourglass.queue.TimerStructure;
import dev.hourglass.time.NanoClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A task that schedules another with no delay gets it run in the same turn or the next, even though
 * the clock has moved on since the turn began and the next tick is far: the way a bounded pass
 * re-arms itself at once while more work is due (as the expiring map's passes do).
 */
class ZeroDelayFromATaskTest {

    /** A clock that moves one nanosecond at every reading, as a real clock moves during a turn. */
    private static final class CreepingClock implements NanoClock {
        long now;

        @Override
        public long nanoTime() {
            return ++now;
        }

        @Override
        public boolean flows() {
            return false;
        }
    }

    private final CreepingClock clock = new CreepingClock();
    private final List<String> ran = new ArrayList<>();

    /** A driver bound to this thread, with a task due in {@code delayMillis} that schedules another with no delay. */
    private TimerDriver driverWithChainedTask(TimerStructure structure, long delayMillis) {
        TimerDriver driver = Timers.builder()
                .clock(clock)
                .structure(structure)
                .tick(Duration.ofMillis(1))
                .buildDriver(() -> {});
        driver.bind();
        driver.schedule(
                () -> {
                    ran.add("first");
                    driver.schedule(() -> ran.add("second"), 0, NANOSECONDS);
                },
                delayMillis,
                MILLISECONDS);
        return driver;
    }

    @ParameterizedTest
    @EnumSource(TimerStructure.class)
    void aZeroDelayFromATaskRunsAtTheNextTurn(TimerStructure structure) {
        TimerDriver driver = driverWithChainedTask(structure, 0);
        driver.turn();
        assertThat(ran).containsExactly("first");
        assertThat(driver.nextDeadline() - clock.now)
                .as("the next turn is due now")
                .isLessThanOrEqualTo(0);
        driver.turn();
        assertThat(ran).containsExactly("first", "second");
        driver.shutdown();
    }

    @ParameterizedTest
    @EnumSource(TimerStructure.class)
    void aZeroDelayFromATaskFiredByTheStructureRunsInTheSameTurn(TimerStructure structure) {
        TimerDriver driver = driverWithChainedTask(structure, 5);
        driver.turn();
        clock.now += MILLISECONDS.toNanos(6);
        driver.turn();
        assertThat(ran).containsExactly("first", "second");
        driver.shutdown();
    }
}
