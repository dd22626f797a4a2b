package dev.hourglass.bench.map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

class ThreadSleepsTest {

    private static final int PARKS = 20;

    @Test
    void countsEachParkOfEachThreadGivenAndForgetsThreadsThatEnded() throws InterruptedException {
        assumeThat(Files.isDirectory(Paths.get("/proc/self/task")))
                .as("only Linux keeps the counts")
                .isTrue();
        CountDownLatch started = new CountDownLatch(2);
        CountDownLatch go = new CountDownLatch(1);
        CountDownLatch parked = new CountDownLatch(1);
        CountDownLatch end = new CountDownLatch(1);
        Thread sleeper = new Thread(
                () -> {
                    started.countDown();
                    awaitQuietly(go);
                    for (int i = 0; i < PARKS; i++) {
                        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                    }
                    parked.countDown();
                    awaitQuietly(end);
                },
                // Names that differ in their first 15 bytes: Linux keeps no more.
                "sleeps-test-sleeper");
        Thread idler = new Thread(
                () -> {
                    started.countDown();
                    awaitQuietly(end);
                },
                "sleeps-test-idler");
        sleeper.start();
        idler.start();
        try {
            // Each thread has taken its native name once it runs its task.
            started.await();
            Map<Thread, Long> before = ThreadSleeps.voluntarySwitches(List.of(sleeper, idler));
            assertThat(before).containsOnlyKeys(sleeper, idler);
            go.countDown();
            parked.await();
            Map<Thread, Long> after = ThreadSleeps.voluntarySwitches(List.of(sleeper, idler));
            // Each may also have gone to sleep on its latch once since the first reading.
            assertThat(after.get(sleeper) - before.get(sleeper))
                    .as("the sleeper's sleeps")
                    .isBetween((long) PARKS, PARKS + 2L);
            assertThat(after.get(idler) - before.get(idler))
                    .as("the idler's, which slept on")
                    .isBetween(0L, 1L);
        } finally {
            go.countDown();
            end.countDown();
            sleeper.join();
            idler.join();
        }
        assertThat(ThreadSleeps.voluntarySwitches(List.of(sleeper, idler)))
                .as("threads that ended")
                .isEmpty();
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
