package dev.hourglass.executor;

import static java.util.concurrent.TimeUnit.HOURS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hourglass.queue.TimerStructure;
import dev.hourglass.time.ManualNanoClock;
import dev.hourglass.timer.Timer;
import dev.hourglass.timer.Timers;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The executor's own bookkeeping of its tasks, which allocates nothing per task: the striped lists
 * of unfinished tasks that shutdownNow goes through, and the per-executor sequence numbers that
 * break ties in {@code compareTo}; and when the failure count moves. On a {@link ManualNanoClock}
 * that never moves, so delayed tasks never come due; seeded, the seed printed.
 */
@org.junit.jupiter.api.Timeout(60)
class TaskBookkeepingTest {

    private static final int THREADS = 4;
    private static final int TASKS_PER_THREAD = 5_000;

    private final ManualNanoClock clock = new ManualNanoClock(Long.MAX_VALUE - 1);
    private final Timer timer =
            Timers.builder().structure(TimerStructure.BINARY_HEAP).clock(clock).startTimerThread();
    private final ExecutorService threads = Executors.newFixedThreadPool(THREADS);

    @AfterEach
    void stop() {
        threads.shutdownNow();
        timer.close();
    }

    /**
     * Threads schedule at once, schedule for later and cancel, each its own seeded mix; once they
     * are done and what was due has run, shutdownNow returns exactly the tasks a set kept by hand
     * says never ran: every stripe's links stayed right under concurrent adds and removes.
     */
    @Test
    void shutdownNowReturnsExactlyTheTasksThatNeverRanAfterConcurrentSchedulesAndCancels() throws Exception {
        long seed = ExecutorDifferentialTest.seed(); // fixed unless -Dhourglass.seed is given
        System.out.println("TaskBookkeepingTest: seed " + seed + " (replay with -Dhourglass.seed=" + seed + ")");
        TimerExecutorService executor = TimerExecutors.builder().build(timer);
        List<Future<List<ScheduledFuture<?>>>> waitingPerThread = new ArrayList<>();
        List<ScheduledFuture<?>> due = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch go = new CountDownLatch(1);
        for (int t = 0; t < THREADS; t++) {
            Random random = new Random(seed + t);
            waitingPerThread.add(threads.submit(() -> {
                go.await();
                List<ScheduledFuture<?>> waiting = new ArrayList<>();
                for (int i = 0; i < TASKS_PER_THREAD; i++) {
                    int op = random.nextInt(10);
                    if (op < 2) {
                        due.add(executor.schedule(() -> {}, 0, SECONDS));
                    } else if (op < 5 && !waiting.isEmpty()) {
                        // Oldest, newest or any: unlinks at both ends and in the middle.
                        int at = random.nextInt(3) == 0 ? 0 : random.nextInt(waiting.size());
                        assertThat(waiting.remove(at).cancel(random.nextBoolean()))
                                .isTrue();
                    } else {
                        waiting.add(executor.schedule(() -> {}, 1 + random.nextInt(3), HOURS));
                    }
                }
                return waiting;
            }));
        }
        go.countDown();
        Set<Object> expected = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Future<List<ScheduledFuture<?>>> waiting : waitingPerThread) {
            expected.addAll(waiting.get(30, SECONDS));
        }
        for (ScheduledFuture<?> f : due) {
            f.get(30, SECONDS);
        }
        List<Runnable> neverRan = executor.shutdownNow();
        Set<Object> returned = Collections.newSetFromMap(new IdentityHashMap<>());
        returned.addAll(neverRan);
        assertThat(neverRan).as("no task twice").hasSameSizeAs(returned);
        assertThat(returned).as("seed %s", seed).hasSameSizeAs(expected).containsAll(expected);
        assertThat(executor.awaitTermination(10, SECONDS)).as("%s", executor).isTrue();
        assertThat(neverRan).allSatisfy(task -> assertThat(((Future<?>) task).isDone())
                .as("left as it was")
                .isFalse());
    }

    /**
     * Each executor numbers its own tasks, so two executors' tasks may share a deadline and a
     * number: the order of the executors then decides, and only a task compares equal to itself,
     * as with the JDK's tasks (numbered by one counter for all executors).
     */
    @Test
    void tiesAcrossExecutorsStillOrderEveryTwoTasks() throws Exception {
        TimerExecutorService first = TimerExecutors.builder().build(timer);
        TimerExecutorService second = TimerExecutors.builder().build(timer);
        ScheduledFuture<?> a0 = first.schedule(() -> {}, 1, HOURS);
        ScheduledFuture<?> b0 = second.schedule(() -> {}, 1, HOURS);
        ScheduledFuture<?> a1 = first.schedule(() -> {}, 1, HOURS);
        // Submitted later on another thread: still after, as the JDK's first-in-first-out.
        ScheduledFuture<?> a2 =
                threads.submit(() -> first.schedule(() -> {}, 1, HOURS)).get(10, SECONDS);
        assertThat(a0.getDelay(SECONDS)).isEqualTo(a2.getDelay(SECONDS)).isEqualTo(b0.getDelay(SECONDS));
        assertThat(a0.compareTo(a1)).isNegative();
        assertThat(a1.compareTo(a2)).isNegative();
        assertThat(a0.compareTo(b0))
                .as("same deadline, same number")
                .isNotZero()
                .isEqualTo(-b0.compareTo(a0));
        assertThat(a1.compareTo(b0)).isEqualTo(-b0.compareTo(a1)).isNotZero();
        List<ScheduledFuture<?>> sorted = new ArrayList<>(List.of(a2, b0, a1, a0));
        sorted.sort(null);
        List<ScheduledFuture<?>> reversed = new ArrayList<>(List.of(a0, a1, b0, a2));
        reversed.sort(null);
        assertThat(sorted).as("one order, whatever the input order").containsExactlyElementsOf(reversed);
        first.shutdownNow();
        second.shutdownNow();
    }

    /**
     * The lists of unfinished tasks run through the tasks: a task that ran or was cancelled must be
     * unlinked, or the executor would keep it (and its neighbours' links) for as long as it lives.
     */
    @Test
    void aFinishedTaskIsNoLongerHeldByTheExecutor() throws Exception {
        TimerExecutorService executor = TimerExecutors.builder().build(timer);
        ScheduledFuture<?> keptLinked = executor.schedule(() -> {}, 1, HOURS);
        List<WeakReference<ScheduledFuture<?>>> finished = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            ScheduledFuture<?> cancelled = executor.schedule(() -> {}, 1, HOURS);
            cancelled.cancel(false);
            finished.add(new WeakReference<>(cancelled));
            ScheduledFuture<?> ran = executor.schedule(() -> {}, 0, SECONDS);
            ran.get(10, SECONDS);
            finished.add(new WeakReference<>(ran));
        }
        long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (finished.stream().anyMatch(ref -> ref.get() != null) && System.nanoTime() - giveUp < 0) {
            // The timer takes a cancel in on its thread: a probe after it means it is done.
            timer.schedule(() -> {}, 0, SECONDS);
            System.gc();
            Thread.sleep(10);
        }
        assertThat(finished)
                .allSatisfy(
                        ref -> assertThat((Object) ref.get()).as("collected").isNull());
        assertThat(keptLinked.isDone()).isFalse();
        executor.shutdownNow();
    }

    /**
     * A failure is counted before its future completes: a thread that {@code get}s the exception
     * then reads the count with it. The future's waiters wake before the completing thread goes
     * on, so a count taken after the completion shows late now and then; many rounds, on two task
     * threads, give that gap its chances.
     */
    @Test
    void whoSeesAFailureSeesItCounted() throws Exception {
        TimerExecutorService executor =
                TimerExecutors.builder().taskExecutor(threads).build(timer);
        for (int round = 1; round <= 3_000; round++) {
            Future<?> failing = executor.submit(() -> {
                throw new IllegalStateException("counted");
            });
            assertThatThrownBy(() -> failing.get(10, SECONDS)).isInstanceOf(ExecutionException.class);
            assertThat(executor.failedCount()).as("round %s", round).isEqualTo(round);
        }
        executor.shutdown();
    }
}
