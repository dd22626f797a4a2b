package dev.hourglass.timer;

import static java.util.concurrent.TimeUnit.HOURS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hourglass.time.ManualNanoClock;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
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
        assertThat(NotifyingTimeoutNode.hearsCancel(lambda))
                .as("a lambda keeps the empty default")
                .isFalse();
        assertThat(NotifyingTimeoutNode.hearsCancel(runnable)).as("a Runnable").isFalse();
        assertThat(NotifyingTimeoutNode.hearsCancel(new Listening())).isTrue();
        assertThat(NotifyingTimeoutNode.hearsCancel(new ListeningChild()))
                .as("inherited")
                .isTrue();
        assertThat(NotifyingTimeoutNode.hearsCancel(byDefault))
                .as("an interface's default")
                .isTrue();
    }

    /**
     * A task that is both a {@link Runnable} and a listening {@link TimerTask}, scheduled as a
     * Runnable, one-shot and periodic: it runs as a TimerTask, so it hears its cancel too.
     */
    @Test
    void aListeningTaskScheduledAsARunnableHearsItsCancel() throws InterruptedException {
        CountDownLatch heard = new CountDownLatch(2);
        class Both implements Runnable, TimerTask {
            @Override
            public void run() {}

            @Override
            public void run(Timeout timeout) {}

            @Override
            public void cancelled(Timeout timeout) {
                heard.countDown();
            }
        }
        Runnable task = new Both();
        try (Timer timer = Timers.builder().clock(new ManualNanoClock(0)).startTimerThread()) {
            assertThat(timer.schedule(task, 1, HOURS).cancel()).isTrue();
            assertThat(timer.scheduleAtFixedRate(task, 1, 1, HOURS).cancel()).isTrue();
            // A cancel wakes a sleeping timer thread only now and then; a timeout due now wakes it.
            timer.schedule(() -> {}, 0, HOURS);
            assertThat(heard.await(10, TimeUnit.SECONDS)).as("both notices").isTrue();
        }
    }
}
