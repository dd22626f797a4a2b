package dev.hourglass.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hourglass.executor.TimerExecutorService;
import dev.hourglass.executor.TimerExecutors;
import dev.hourglass.time.ManualNanoClock;
import dev.hourglass.timer.Timer;
import dev.hourglass.timer.Timers;
import io.micrometer.core.instrument.Tags;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** An executor's meters, and its timer's, in a real Prometheus scrape after a scripted scenario. */
class ExecutorMetricsTest {

    private final Scrape scrape = new Scrape();

    @Test
    void aScrapeShowsTheTimersMetersAndTheExecutorsRefusalsAndFailures() throws Exception {
        ManualNanoClock clock = new ManualNanoClock(Long.MAX_VALUE - 1_000_000);
        try (Timer timer = Timers.builder().clock(clock).startTimerThread()) {
            TimerExecutorService executor = TimerExecutors.builder().build(timer);
            ExecutorMetrics.of(executor, "scheduler", Tags.of("app", "shop")).bindTo(scrape.registry);

            Future<?> failing = executor.submit(() -> {
                throw new IllegalStateException("a failing task (expected in this test)");
            });
            assertThatThrownBy(() -> failing.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class);
            executor.submit(() -> {}).get(10, TimeUnit.SECONDS);
            executor.schedule(() -> {}, 1, TimeUnit.HOURS).cancel(false);
            executor.shutdown();
            assertThatThrownBy(() -> executor.execute(() -> {})).isInstanceOf(RejectedExecutionException.class);
            assertThat(executor.awaitTermination(10, TimeUnit.SECONDS)).isTrue();

            assertThat(scrape.samples("hourglass_executor_"))
                    .containsExactly(
                            "hourglass_executor_rejected_total{app=\"shop\",name=\"scheduler\"} 1.0",
                            "hourglass_executor_task_exceptions_total{app=\"shop\",name=\"scheduler\"} 1.0");
            assertThat(scrape.samples("hourglass_timer_scheduled_total"))
                    .containsExactly("hourglass_timer_scheduled_total{app=\"shop\",name=\"scheduler\"} 3.0");
            assertThat(scrape.samples("hourglass_timer_task_exceptions_total"))
                    .as("the task's exception went to its future, not to the timer's handler")
                    .containsExactly("hourglass_timer_task_exceptions_total{app=\"shop\",name=\"scheduler\"} 0.0");
        }
    }

    @Test
    void refusesBadInputNamingTheArgument() {
        try (Timer timer = Timers.builder().clock(new ManualNanoClock(0)).startTimerThread()) {
            TimerExecutorService executor = TimerExecutors.builder().build(timer);
            assertThatThrownBy(() -> ExecutorMetrics.of(null, "a", Tags.empty()))
                    .hasMessage("executor");
            assertThatThrownBy(() -> ExecutorMetrics.of(executor, null, Tags.empty()))
                    .hasMessage("name");
            assertThatThrownBy(() -> ExecutorMetrics.of(executor, "a", Tags.of("name", "b")))
                    .isInstanceOf(IllegalArgumentException.class);
            executor.shutdown();
        }
    }
}
