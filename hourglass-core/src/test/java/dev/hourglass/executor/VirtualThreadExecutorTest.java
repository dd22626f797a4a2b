package dev.hourglass.executor;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

/**
 * One virtual thread per task ({@link TimerExecutorBuilder#virtualThreadPerTask()}): on Java 21
 * and later (CI runs these on Java 25), tasks run on virtual threads, concurrently, and the
 * contract holds there too; before Java 21 the builder refuses clearly.
 */
@org.junit.jupiter.api.Timeout(60)
class VirtualThreadExecutorTest {

    private static boolean isVirtual(Thread thread) throws ReflectiveOperationException {
        return (Boolean) Thread.class.getMethod("isVirtual").invoke(thread);
    }

    @Test
    @EnabledForJreRange(min = JRE.JAVA_21)
    void eachTaskRunsOnANewVirtualThread() throws Exception {
        TimerExecutorService executor =
                TimerExecutors.builder().virtualThreadPerTask().startTimerThread();
        try {
            int tasks = 50;
            Set<Thread> threads = ConcurrentHashMap.newKeySet();
            // Every task blocks until all have started: only threads of their own let them.
            CountDownLatch allStarted = new CountDownLatch(tasks);
            List<Future<Boolean>> futures = new ArrayList<>();
            for (int i = 0; i < tasks; i++) {
                futures.add(executor.schedule(
                        () -> {
                            threads.add(Thread.currentThread());
                            allStarted.countDown();
                            assertThat(allStarted.await(10, SECONDS)).isTrue();
                            return isVirtual(Thread.currentThread());
                        },
                        i % 5,
                        MILLISECONDS));
            }
            for (Future<Boolean> f : futures) {
                assertThat(f.get(10, SECONDS)).as("ran on a virtual thread").isTrue();
            }
            assertThat(threads).hasSize(tasks);

            // cancel(true) interrupts a task blocked on its virtual thread.
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch interrupted = new CountDownLatch(1);
            Future<?> blocked = executor.submit(() -> {
                started.countDown();
                try {
                    Thread.sleep(60_000);
                } catch (InterruptedException e) {
                    interrupted.countDown();
                }
            });
            assertThat(started.await(10, SECONDS)).isTrue();
            assertThat(blocked.cancel(true)).isTrue();
            assertThat(interrupted.await(10, SECONDS)).isTrue();

            // A periodic task that throws stops there, on virtual threads as anywhere.
            ScheduledFuture<?> failing = executor.scheduleAtFixedRate(
                    () -> {
                        throw new IllegalStateException("periodic");
                    },
                    0,
                    1,
                    MILLISECONDS);
            assertThatThrownBy(() -> failing.get(10, SECONDS)).hasCauseInstanceOf(IllegalStateException.class);
        } finally {
            executor.close();
        }
        assertThat(executor.isTerminated()).isTrue();
        assertThat(executor.timer().isClosed()).isTrue();
    }

    @Test
    @EnabledForJreRange(max = JRE.JAVA_20)
    void beforeJava21TheBuilderRefusesNamingTheVersion() {
        assertThatThrownBy(() -> TimerExecutors.builder().virtualThreadPerTask())
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("Java 21 or later")
                .hasMessageContaining(String.valueOf(Runtime.version().feature()));
    }
}
