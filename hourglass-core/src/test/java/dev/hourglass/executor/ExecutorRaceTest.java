package dev.hourglass.executor;

import static java.util.concurrent.TimeUnit.HOURS;
import static java.util.concurrent.TimeUnit.MICROSECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hourglass.timer.Timer;
import dev.hourglass.timer.Timers;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Races the single-threaded tests cannot show, on real threads and the system clock: submissions
 * racing a shutdown or a shutdownNow, and cancels racing a periodic task's next filing. Each round
 * checks that every accepted task is accounted for exactly once and that the executor terminates.
 */
@org.junit.jupiter.api.Timeout(120)
class ExecutorRaceTest {

    private static final int ROUNDS = 40;
    private static final int SUBMITTERS = 3;
    private static final int SHUTDOWN_AFTER = 100;
    private static final int MAX_PER_SUBMITTER = 2_000;

    private final ExecutorService submitters = Executors.newFixedThreadPool(SUBMITTERS);
    private final Timer timer = Timers.builder().startTimerThread();
    private final ExecutorService pool = Executors.newFixedThreadPool(2);

    @AfterEach
    void stop() {
        submitters.shutdownNow();
        pool.shutdownNow();
        timer.close();
    }

    /** Submitters schedule tasks now or in an hour until refused; another thread shuts down. */
    private void race(boolean now, boolean executeDelayed) throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            TimerExecutorService executor = TimerExecutors.builder()
                    .executeExistingDelayedTasksAfterShutdown(executeDelayed)
                    .taskExecutor(pool)
                    .build(timer);
            Set<Integer> ran = ConcurrentHashMap.newKeySet();
            List<ScheduledFuture<?>> accepted = Collections.synchronizedList(new ArrayList<>());
            AtomicInteger ids = new AtomicInteger();
            CountDownLatch going = new CountDownLatch(SUBMITTERS);
            List<Future<?>> loops = new ArrayList<>();
            for (int s = 0; s < SUBMITTERS; s++) {
                loops.add(submitters.submit(() -> {
                    going.countDown();
                    try {
                        for (int i = 0; i < MAX_PER_SUBMITTER; i++) {
                            int id = ids.incrementAndGet();
                            accepted.add(executor.schedule(() -> ran.add(id), id % 2 == 0 ? 0 : 1, HOURS));
                        }
                    } catch (RejectedExecutionException expected) {
                        // the shutdown came
                    }
                    return null;
                }));
            }
            going.await();
            while (accepted.size() < SHUTDOWN_AFTER) {
                Thread.onSpinWait();
            }
            List<Runnable> neverRan = now ? executor.shutdownNow() : Collections.emptyList();
            if (!now) {
                executor.shutdown();
            }
            for (Future<?> loop : loops) {
                loop.get(10, SECONDS);
            }
            if (!now) {
                // Delayed tasks kept by the policy hold the executor: cancel them to let it end.
                accepted.forEach(f -> {
                    if (f.getDelay(SECONDS) > 60) {
                        f.cancel(false);
                    }
                });
            }
            assertThat(executor.awaitTermination(10, SECONDS))
                    .as("round %s terminates: %s", round, executor)
                    .isTrue();
            Set<Object> drained = Collections.newSetFromMap(new java.util.IdentityHashMap<>());
            drained.addAll(neverRan);
            for (ScheduledFuture<?> f : accepted) {
                boolean inList = drained.contains(f);
                // Exactly one of: it ran, it was cancelled, shutdownNow returned it untouched.
                assertThat((f.isDone() && !f.isCancelled() ? 1 : 0) + (f.isCancelled() ? 1 : 0) + (inList ? 1 : 0))
                        .as("round %s, %s", round, f)
                        .isEqualTo(1);
                assertThat(inList).isEqualTo(!f.isDone());
            }
            assertThat(drained).hasSizeLessThanOrEqualTo(accepted.size());
            assertThat(ran).hasSize((int) accepted.stream()
                    .filter(f -> f.isDone() && !f.isCancelled())
                    .count());
        }
    }

    @Test
    void submissionsRacingShutdownAreEachRunOrCancelled() throws Exception {
        race(false, true);
        race(false, false);
    }

    @Test
    void submissionsRacingShutdownNowAreEachRunCancelledOrReturned() throws Exception {
        race(true, true);
    }

    @Test
    void aCancelRacingAPeriodicTaskStopsItForGood() throws Exception {
        TimerExecutorService executor = TimerExecutors.builder().build(timer);
        for (int round = 0; round < ROUNDS * 4; round++) {
            AtomicInteger runs = new AtomicInteger();
            CountDownLatch started = new CountDownLatch(1);
            ScheduledFuture<?> periodic = executor.scheduleAtFixedRate(
                    () -> {
                        runs.incrementAndGet();
                        started.countDown();
                    },
                    0,
                    1 + round % 20,
                    MICROSECONDS);
            assertThat(started.await(10, SECONDS)).isTrue();
            assertThat(periodic.cancel(round % 2 == 0)).isTrue();
            // A run that had begun may end; none starts after it. A task now runs after them all.
            executor.submit(() -> {}).get(10, SECONDS);
            int after = runs.get();
            executor.submit(() -> {}).get(10, SECONDS);
            assertThat(runs).as("round %s", round).hasValue(after);
        }
        executor.shutdown();
        assertThat(executor.awaitTermination(10, SECONDS))
                .as("no cancelled periodic task is left filed: %s", executor)
                .isTrue();
    }
}
