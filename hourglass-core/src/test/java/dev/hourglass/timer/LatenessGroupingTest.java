package dev.hourglass.timer;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.NANOSECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hourglass.queue.TimerStructure;
import dev.hourglass.time.NanoClock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * How the driver measures lateness when many timeouts come due at once (see {@link TaskRunner}):
 * the tasks of a turn share clock readings in groups, which never overstate a task's lateness and
 * understate it by at most the run time of the tasks before it in its group.
 */
class LatenessGroupingTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    /** A clock that moves only when told and counts its readings; driver's thread only. */
    private static final class CountingClock implements NanoClock {
        long now;
        int reads;

        @Override
        public long nanoTime() {
            reads++;
            return now;
        }

        @Override
        public boolean flows() {
            return false;
        }
    }

    private final CountingClock clock = new CountingClock();

    private TimerDriver open(TimerStructure structure) {
        TimerDriver driver = Timers.builder()
                .clock(clock)
                .structure(structure)
                .tick(Duration.ofMillis(1))
                .buildDriver(() -> {});
        driver.bind();
        return driver;
    }

    @ParameterizedTest
    @EnumSource(TimerStructure.class)
    void cheapTasksDueAtOnceShareClockReadings(TimerStructure structure) {
        TimerDriver driver = open(structure);
        int[] runs = {0};
        for (int i = 0; i < 1000; i++) {
            driver.schedule(() -> runs[0]++, 1, MILLISECONDS);
        }
        driver.turn();
        clock.now = MS;
        clock.reads = 0;
        driver.turn();
        assertThat(runs[0]).isEqualTo(1000);
        // One reading for the turn, then one per group: 1, 2, 4, 8, 16, then 32 tasks each (30
        // groups); one reading per task would be 1001.
        assertThat(clock.reads).isLessThanOrEqualTo(1 + 5 + 31);
        assertThat(driver.stats().latenessCount()).isEqualTo(1000);
        assertThat(driver.stats().latenessMax(NANOSECONDS)).isZero();
        driver.shutdown();
    }

    @ParameterizedTest
    @EnumSource(TimerStructure.class)
    void aSlowTaskIsFeltWithinOneGroup(TimerStructure structure) {
        TimerDriver driver = open(structure);
        int[] runs = {0};
        int count = 200;
        for (int i = 0; i < count; i++) {
            driver.schedule(
                    () -> {
                        if (++runs[0] == 100) {
                            clock.now += 5 * MS; // the 100th task takes 5 ms
                        }
                    },
                    1,
                    MILLISECONDS);
        }
        driver.turn();
        clock.now = MS;
        driver.turn();
        assertThat(runs[0]).isEqualTo(count);
        TimerStats stats = driver.stats();
        assertThat(stats.latenessCount()).isEqualTo(count);
        // Never overstated: no task started more than 5 ms late.
        assertThat(stats.latenessMax(NANOSECONDS)).isEqualTo(5 * MS);
        // Understated only within the slow task's group: the first 100 started on time, at most
        // MAX_GROUP - 1 after the slow one share its group's reading, the rest (at least 69, more
        // than 1%) count 5 ms.
        assertThat(stats.latenessP99(NANOSECONDS)).isEqualTo(5 * MS);
        assertThat(stats.latenessP50(NANOSECONDS)).isZero();
        driver.shutdown();
    }

    @ParameterizedTest
    @EnumSource(TimerStructure.class)
    void eachTurnReadsTheClockAfresh(TimerStructure structure) {
        TimerDriver driver = open(structure);
        // Two at once: a group of one, then a group of two that is still open when they are done.
        for (int i = 0; i < 2; i++) {
            driver.schedule(() -> {}, 1, MILLISECONDS);
        }
        driver.schedule(() -> {}, 2, MILLISECONDS);
        driver.turn();
        clock.now = MS;
        driver.turn();
        clock.now = 5 * MS;
        driver.turn();
        TimerStats stats = driver.stats();
        assertThat(stats.latenessCount()).isEqualTo(3);
        assertThat(stats.latenessMax(NANOSECONDS))
                .as("the later turn's task is measured from that turn's time")
                .isEqualTo(3 * MS);
        driver.shutdown();
    }
}
