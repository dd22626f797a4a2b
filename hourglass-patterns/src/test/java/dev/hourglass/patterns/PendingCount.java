package dev.hourglass.patterns;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hourglass.time.ManualNanoClock;
import dev.hourglass.timer.Timer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A timer's driver counts cancellations when it takes them in, so a test that cancels from its own
 * thread waits for the count: it nudges a manual clock by 0 ns, which wakes the driver for a turn.
 */
final class PendingCount {

    private PendingCount() {}

    static void await(Timer timer, long expected) {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (timer.stats().pending() != expected) {
            assertThat(System.nanoTime() - end)
                    .as("pending timeouts reach " + expected + ": " + timer.stats())
                    .isNegative();
            if (timer.clock() instanceof ManualNanoClock) {
                ((ManualNanoClock) timer.clock()).advance(0);
            }
            LockSupport.parkNanos(100_000);
        }
    }
}
