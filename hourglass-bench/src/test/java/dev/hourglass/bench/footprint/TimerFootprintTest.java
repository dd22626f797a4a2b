package dev.hourglass.bench.footprint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hourglass.timer.TimerDriver;
import dev.hourglass.timer.Timers;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.openjdk.jol.info.GraphLayout;

/**
 * Issue 11's footprint target: at most 48 bytes per pending one-shot timeout on the default
 * structure, the handle included, counting everything reachable from the timer (JOL). The driver is
 * bound to the test's thread, so no timer thread is in the graph.
 */
class TimerFootprintTest {

    static {
        // The timer reaches lambdas, whose fields JOL reads only this way.
        System.setProperty("jol.magicFieldOffset", "true");
    }

    @Test
    void aPendingTimeoutOnTheDefaultStructureTakesAtMost48Bytes() {
        int n = 200_000;
        Runnable task = () -> {};
        TimerDriver timer = Timers.builder().buildDriver(() -> {});
        timer.bind();
        long empty = timerOnly(timer);
        for (int i = 0; i < n; i++) {
            timer.schedule(task, Duration.ofSeconds(10 + i % 30));
        }
        timer.turn();
        double perTimeout = (double) (timerOnly(timer) - empty) / n;
        assertThat(perTimeout).isLessThanOrEqualTo(48.5);
        timer.stop();
    }

    /**
     * The bytes reachable from the timer, less those reachable from its bound thread (this one):
     * through the thread's group JOL would count whatever other threads of the JVM hold, which
     * changes between two readings.
     */
    private static long timerOnly(TimerDriver timer) {
        return GraphLayout.parseInstance(timer)
                .subtract(GraphLayout.parseInstance(Thread.currentThread()))
                .totalSize();
    }
}
