package dev.hourglass.timer;

import static java.util.concurrent.TimeUnit.HOURS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hourglass.queue.TimerStructure;
import dev.hourglass.time.ManualNanoClock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What a task is ({@link TaskKind}): decided when the timeout is made, from the task's class, so
 * that the driver never tests the task. Which tasks are told of a cancel (the driver never reads a
 * task that would only ignore the notice), and how each kind runs, on the nodes that say it by
 * their class and on the wide node that keeps it in a field.
 */
class CancelNoticeTest {

    /** Overrides the notice. */
    static class Listening implements TimerTask {
        @Override
        public void run(Timeout timeout) {}

        @Override
        public void cancelled(Timeout timeout) {}
    }

    /** Inherits an override. */
    static final class ListeningChild extends Listening {}

    /** A sub-interface whose default overrides the notice. */
    interface ListeningTask extends TimerTask {
        @Override
        default void cancelled(Timeout timeout) {}
    }

    @Test
    void onlyTimerTasksThatOverrideTheNoticeHearIt() {
        TimerTask lambda = timeout -> {};
        Runnable runnable = () -> {};
        ListeningTask byDefault = timeout -> {};
        assertThat(TaskKind.of(lambda)).as("a lambda keeps the empty default").isEqualTo(TaskKind.TIMER_TASK);
        assertThat(TaskKind.of(runnable)).as("a Runnable").isEqualTo(TaskKind.RUNNABLE);
        assertThat(TaskKind.of(new Listening())).isEqualTo(TaskKind.LISTENING_TIMER_TASK);
        assertThat(TaskKind.of(new ListeningChild())).as("inherited").isEqualTo(TaskKind.LISTENING_TIMER_TASK);
        assertThat(TaskKind.of(byDefault)).as("an interface's default").isEqualTo(TaskKind.LISTENING_TIMER_TASK);
    }

    /**
     * A driver checks the class of its latest task first: classes in turn, each twice in a row and
     * then alternating, from two threads at once, must each get their own kind.
     */
    @Test
    void theLatestClassCheckedFirstNeverAnswersForAnother() throws InterruptedException {
        TaskKind.Cache cache = new TaskKind.Cache();
        Object[] tasks = {(Runnable) () -> {}, (TimerTask) timeout -> {}, new Listening(), new Both()};
        TaskKind[] kinds = {
            TaskKind.RUNNABLE, TaskKind.TIMER_TASK, TaskKind.LISTENING_TIMER_TASK, TaskKind.LISTENING_TIMER_TASK
        };
        AtomicInteger wrong = new AtomicInteger();
        Runnable check = () -> {
            for (int i = 0; i < 100_000; i++) {
                int k = (i / 2 + (i & 1) * (i % 3)) % tasks.length;
                if (cache.of(tasks[k]) != kinds[k]) {
                    wrong.incrementAndGet();
                }
            }
        };
        Thread other = new Thread(check);
        other.start();
        check.run();
        other.join();
        assertThat(wrong).hasValue(0);
    }

    /**
     * Each kind runs its own way, one-shot and periodic, on a structure that links the timeout
     * itself (narrow nodes, whose class says the kind) and on one that wraps it (the wide node,
     * whose field says it): a {@code Runnable} through {@code run()}, a {@code TimerTask} and a task
     * that is both through {@code run(Timeout)} with its own handle.
     */
    @ParameterizedTest
    @EnumSource(
            value = TimerStructure.class,
            names = {"HIERARCHICAL_WHEEL", "RED_BLACK_TREE"})
    void eachKindRunsItsOwnWay(TimerStructure structure) {
        ManualNanoClock clock = new ManualNanoClock(0);
        TimerDriver driver = Timers.builder().structure(structure).clock(clock).buildDriver(() -> {});
        driver.bind();
        AtomicInteger plainRuns = new AtomicInteger();
        List<Timeout> handed = new ArrayList<>();
        Runnable plain = plainRuns::incrementAndGet;
        TimerTask task = handed::add;
        Both both = new Both();
        List<Timeout> scheduled = new ArrayList<>();
        for (Object t : new Object[] {plain, task, both}) {
            if (t instanceof TimerTask) {
                scheduled.add(driver.schedule((TimerTask) t, 1, SECONDS));
                scheduled.add(driver.scheduleAtFixedRate((TimerTask) t, 1, 1, SECONDS));
            } else {
                scheduled.add(driver.schedule((Runnable) t, 1, SECONDS));
                scheduled.add(driver.scheduleAtFixedRate((Runnable) t, 1, 1, SECONDS));
            }
        }
        Timeout bothAsRunnable = driver.schedule((Runnable) both, 1, SECONDS);
        clock.advance(SECONDS.toNanos(1) + 1);
        driver.turn();

        assertThat(plainRuns).as("the Runnable's runs").hasValue(2);
        assertThat(handed).as("the TimerTask's handles").containsExactlyInAnyOrder(scheduled.get(2), scheduled.get(3));
        assertThat(both.handles)
                .as("a task that is both runs as a TimerTask")
                .containsExactlyInAnyOrder(scheduled.get(4), scheduled.get(5), bothAsRunnable);
        assertThat(both.plainRuns).as("never through run()").hasValue(0);
        driver.shutdown();
    }

    /**
     * A listening timeout that closing cancels while it waits on the intake (moved earlier, then due
     * when the turn fires it) is counted once, as closing cancelled it, and its task is not told:
     * closing tells no task. Its take then finds it final and closed and leaves it alone.
     */
    @Test
    void aTimeoutThatClosingCancelsOnTheIntakeIsCountedOnceAndNotTold() {
        ManualNanoClock clock = new ManualNanoClock(0);
        TimerDriver driver = Timers.builder().clock(clock).buildDriver(() -> {});
        driver.bind();
        Both both = new Both();
        Timeout timeout = CompletableFuture.supplyAsync(() -> driver.schedule((TimerTask) both, 10, SECONDS))
                .join();
        driver.turn();
        clock.advance(SECONDS.toNanos(11));
        // Earlier than its 10 s, so the move puts it on the intake; its place in the queue is due.
        assertThat(CompletableFuture.supplyAsync(() -> timeout.rescheduleAt(SECONDS.toNanos(9)))
                        .join())
                .isTrue();
        assertThat(((TimeoutNode) timeout).state() & TimeoutNode.QUEUED)
                .as("on the intake")
                .isNotZero();
        assertThat(driver.beginClose()).isTrue();
        driver.turn();
        driver.shutdown();

        assertThat(driver.awaitStopped()).containsExactly(timeout);
        assertThat(timeout.isCancelled()).isTrue();
        assertThat(driver.stats().cancelled()).as("counted once").isOne();
        assertThat(both.heard.getCount()).as("not told").isEqualTo(2);
        assertThat(both.handles).as("never ran").isEmpty();
    }

    /** Both a {@link Runnable} and a listening {@link TimerTask}. */
    static final class Both implements Runnable, TimerTask {
        final CountDownLatch ran = new CountDownLatch(1);
        final CountDownLatch heard = new CountDownLatch(2);
        final List<Timeout> handles = new CopyOnWriteArrayList<>();
        final AtomicInteger plainRuns = new AtomicInteger();

        @Override
        public void run() {
            plainRuns.incrementAndGet();
        }

        @Override
        public void run(Timeout timeout) {
            handles.add(timeout);
            ran.countDown();
        }

        @Override
        public void cancelled(Timeout timeout) {
            heard.countDown();
        }
    }

    /**
     * A task that is both a {@link Runnable} and a listening {@link TimerTask}, scheduled as a
     * Runnable, one-shot and periodic: it runs as a TimerTask, so it hears its cancel too.
     */
    @Test
    void aListeningTaskScheduledAsARunnableRunsAsATimerTaskAndHearsItsCancel() throws InterruptedException {
        Both both = new Both();
        Runnable task = both;
        try (Timer timer = Timers.builder().clock(new ManualNanoClock(0)).startTimerThread()) {
            assertThat(timer.schedule(task, 1, HOURS).cancel()).isTrue();
            assertThat(timer.scheduleAtFixedRate(task, 1, 1, HOURS).cancel()).isTrue();
            timer.schedule(task, 0, HOURS);
            assertThat(both.ran.await(10, TimeUnit.SECONDS)).as("run(Timeout)").isTrue();
            assertThat(both.heard.await(10, TimeUnit.SECONDS))
                    .as("both notices")
                    .isTrue();
        }
    }
}
