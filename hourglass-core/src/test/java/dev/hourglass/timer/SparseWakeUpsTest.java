package dev.hourglass.timer;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hourglass.queue.TimerStructure;
import dev.hourglass.time.ManualNanoClock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A loop that sleeps until {@link TimerDriver#nextDeadline()}, as the timer thread does, wakes once
 * per run of a lone periodic timer on every structure: a wake-up costs a sleeping thread tens of
 * microseconds of CPU, more than the run of a small task. On the default hierarchical wheel (0.1 ms
 * tick, 256 near slots) a 10 ms period crosses a near rotation on two runs in five, which used to
 * wake the loop at the cascade first.
 */
class SparseWakeUpsTest {

    private static final int RUNS = 1_000;

    @ParameterizedTest
    @EnumSource(TimerStructure.class)
    void aLonePeriodicTimerWakesTheLoopOncePerRun(TimerStructure structure) {
        ManualNanoClock clock = new ManualNanoClock(Long.MAX_VALUE - 5_000_000_000L);
        TimerDriver driver = Timers.builder().clock(clock).structure(structure).buildDriver(() -> {});
        try {
            driver.bind();
            int[] runs = {0};
            driver.scheduleAtFixedRate(() -> runs[0]++, 10, 10, MILLISECONDS);

            int wakes = 0;
            while (runs[0] < RUNS) {
                clock.advance(Math.max(0, driver.nextDeadline() - clock.nanoTime()));
                driver.turn();
                wakes++;
            }

            assertThat(wakes).as("wake-ups for %d runs", RUNS).isEqualTo(RUNS);
        } finally {
            driver.close();
        }
    }
}
