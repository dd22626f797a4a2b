package dev.hourglass.bench.map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

class ThreadSleepsTest {

    private static final int PARKS = 20;

    @Test
    void countsEachParkOfTheThreadsGivenAndNoOtherThreads() throws InterruptedException {
        assumeThat(Files.isDirectory(Paths.get("/proc/self/task")))
                .as("only Linux keeps the counts")
                .isTrue();
        CountDownLatch go = new CountDownLatch(1);
        CountDownLatch parked = new CountDownLatch(1);
        CountDownLatch end = new CountDownLatch(1);
        Thread sleeper = new Thread(
                () -> {
                    awaitQuietly(go);
                    for (int i = 0; i < PARKS; i++) {
                        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                    }
                    parked.countDown();
                    awaitQuietly(end);
                },
                "sleeps-test-sleeper");
        // Names that differ in their first 15 characters: Linux keeps no more.
        Thread idler = new Thread(() -> awaitQuietly(end), "sleeps-test-idler");
        sleeper.start();
        idler.start();
        try {
            long before = ThreadSleeps.voluntarySwitches(List.of(sleeper));
            long idlerBefore = ThreadSleeps.voluntarySwitches(List.of(idler));
            go.countDown();
            parked.await();
            long slept = ThreadSleeps.voluntarySwitches(List.of(sleeper)) - before;
            assertThat(slept).as("the sleeper's sleeps").isBetween((long) PARKS, PARKS + 5L);
            assertThat(ThreadSleeps.voluntarySwitches(List.of(idler)))
                    .as("the idler, which may have gone to sleep since its first reading")
                    .isBetween(idlerBefore, idlerBefore + 1);
            assertThat(ThreadSleeps.voluntarySwitches(List.of())).isZero();
        } finally {
            go.countDown();
            end.countDown();
            sleeper.join();
            idler.join();
        }
        assertThat(ThreadSleeps.voluntarySwitches(List.of(sleeper, idler)))
                .as("ended threads")
                .isZero();
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
