package dev.hourglass.timer;

import static java.util.concurrent.TimeUnit.HOURS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hourglass.time.ManualNanoClock;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Which tasks the driver tells of a cancel: decided when the timeout is made, from the task's
 * class, so that the driver never reads a task that would only ignore the notice.
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
     * The kind is kept per class, with the latest class checked first: classes in turn, each twice
     * in a row and then alternating, from two threads at once, must each get their own kind.
     */
    @Test
    void theLatestClassCheckedFirstNeverAnswersForAnother() throws InterruptedException {
        Object[] tasks = {(Runnable) () -> {}, (TimerTask) timeout -> {}, new Listening(), new Both()};
        TaskKind[] kinds = {
            TaskKind.RUNNABLE, TaskKind.TIMER_TASK, TaskKind.LISTENING_TIMER_TASK, TaskKind.LISTENING_TIMER_TASK
        };
        AtomicInteger wrong = new AtomicInteger();
        Runnable check = () -> {
            for (int i = 0; i < 100_000; i++) {
                int k = (i / 2 + (i & 1) * (i % 3)) % tasks.length;
                if (TaskKind.of(tasks[k]) != kinds[k]) {
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

    /** Both a {@link Runnable} and a listening {@link TimerTask}. */
    static final class Both implements Runnable, TimerTask {
        final CountDownLatch ran = new CountDownLatch(1);
        final CountDownLatch heard = new CountDownLatch(2);

        @Override
        public void run() {}

        @Override
        public void run(Timeout timeout) {
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
