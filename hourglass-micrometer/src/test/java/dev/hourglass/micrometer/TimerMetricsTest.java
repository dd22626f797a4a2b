package dev.hourglass.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hourglass.queue.TimerStructure;
import dev.hourglass.time.ManualNanoClock;
import dev.hourglass.timer.Timeout;
import dev.hourglass.timer.TimerDriver;
import dev.hourglass.timer.Timers;
import io.micrometer.core.instrument.Tags;
import java.lang.ref.WeakReference;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A timer's meters in a real Prometheus scrape after a scripted scenario on a manual clock: the
 * driver is bound to the test's thread, so each schedule applies at once and each {@code turn()}
 * fires what is due, with no thread and no sleeping.
 */
class TimerMetricsTest {

    private static final long MS = 1_000_000;

    /** Near the end of the range: deadlines wrap past Long.MAX_VALUE during the test. */
    private final ManualNanoClock clock = new ManualNanoClock(Long.MAX_VALUE - 2 * MS);

    private final Scrape scrape = new Scrape();
    private TimerDriver timer;

    @AfterEach
    void close() {
        if (timer != null) {
            timer.close();
        }
    }

    private TimerDriver start(long maxPending) {
        timer = Timers.builder()
                .structure(TimerStructure.BINARY_HEAP)
                .clock(clock)
                .maxPending(maxPending)
                .exceptionHandler((timeout, error) -> {})
                .buildDriver(() -> {});
        assertThat(timer.bind()).isTrue();
        return timer;
    }

    @Test
    void aScrapeShowsTheCountersPendingAndLatenessPercentiles() {
        start(1003);
        TimerMetrics.of(timer, "requests", Tags.of("region", "eu")).bindTo(scrape.registry);
        Runnable nothing = () -> {};
        // 1,000 runs: 989 on time, 9 one millisecond late, 2 four milliseconds late, so that the
        // 50th, 99th and 99.9th percentiles differ (ranks 500, 990 and 999).
        for (int i = 0; i < 2; i++) {
            timer.schedule(nothing, 0, TimeUnit.NANOSECONDS);
        }
        for (int i = 0; i < 9; i++) {
            timer.schedule(nothing, 3 * MS, TimeUnit.NANOSECONDS);
        }
        timer.schedule(
                () -> {
                    throw new IllegalStateException("a failing task (expected in this test)");
                },
                4 * MS,
                TimeUnit.NANOSECONDS);
        for (int i = 0; i < 988; i++) {
            timer.schedule(nothing, 4 * MS, TimeUnit.NANOSECONDS);
        }
        Timeout cancelled = timer.schedule(nothing, 1, TimeUnit.HOURS);
        timer.schedule(nothing, 1, TimeUnit.HOURS);
        timer.schedule(nothing, 2, TimeUnit.HOURS);
        assertThatThrownBy(() -> timer.schedule(nothing, 1, TimeUnit.HOURS))
                .isInstanceOf(RejectedExecutionException.class);
        assertThat(cancelled.cancel()).isTrue();
        clock.advance(4 * MS);
        timer.turn();

        // A lateness percentile is the upper bound of its histogram bucket (within 6.25%), capped
        // by the largest value: 1 ms falls in [983,040, 1,015,807] ns; the 4 ms maximum is exact.
        assertThat(scrape.samples("hourglass_timer_"))
                .containsExactly(
                        "hourglass_timer_cancelled_total{name=\"requests\",region=\"eu\"} 1.0",
                        "hourglass_timer_fired_total{name=\"requests\",region=\"eu\"} 1000.0",
                        "hourglass_timer_lateness_max_seconds{name=\"requests\",region=\"eu\"} 0.004",
                        "hourglass_timer_lateness_seconds{name=\"requests\",quantile=\"0.5\",region=\"eu\"} 0.0",
                        "hourglass_timer_lateness_seconds{name=\"requests\",quantile=\"0.99\",region=\"eu\"} 0.001015807",
                        "hourglass_timer_lateness_seconds{name=\"requests\",quantile=\"0.999\",region=\"eu\"} 0.004",
                        "hourglass_timer_pending{name=\"requests\",region=\"eu\"} 2.0",
                        "hourglass_timer_rejected_total{name=\"requests\",region=\"eu\"} 1.0",
                        "hourglass_timer_scheduled_total{name=\"requests\",region=\"eu\"} 1003.0",
                        "hourglass_timer_task_exceptions_total{name=\"requests\",region=\"eu\"} 1.0");
    }

    @Test
    void aScrapeReadsTheTimerAgainEachTime() {
        start(Long.MAX_VALUE);
        TimerMetrics.of(timer, "t", Tags.empty()).bindTo(scrape.registry);
        assertThat(scrape.samples("hourglass_timer_pending"))
                .containsExactly("hourglass_timer_pending{name=\"t\"} 0.0");
        timer.schedule(() -> {}, 1, TimeUnit.MILLISECONDS);
        assertThat(scrape.samples("hourglass_timer_pending"))
                .containsExactly("hourglass_timer_pending{name=\"t\"} 1.0");
        clock.advance(MS);
        timer.turn();
        assertThat(scrape.samples("hourglass_timer_pending"))
                .containsExactly("hourglass_timer_pending{name=\"t\"} 0.0");
        assertThat(scrape.samples("hourglass_timer_fired"))
                .containsExactly("hourglass_timer_fired_total{name=\"t\"} 1.0");
    }

    @Test
    void severalTimersAreToldApartByTheirName() {
        start(Long.MAX_VALUE);
        try (TimerDriver other = Timers.builder().clock(clock).buildDriver(() -> {})) {
            other.bind();
            other.schedule(() -> {}, 1, TimeUnit.HOURS);
            other.schedule(() -> {}, 1, TimeUnit.HOURS);
            TimerMetrics.of(timer, "a", Tags.empty()).bindTo(scrape.registry);
            TimerMetrics.of(other, "b", Tags.empty()).bindTo(scrape.registry);
            assertThat(scrape.samples("hourglass_timer_pending"))
                    .containsExactly(
                            "hourglass_timer_pending{name=\"a\"} 0.0", "hourglass_timer_pending{name=\"b\"} 2.0");
        }
    }

    @Test
    void theMetersDoNotKeepATimerAlive() throws InterruptedException {
        WeakReference<TimerDriver> dropped = bindAndDrop();
        for (int i = 0; i < 100 && dropped.get() != null; i++) {
            System.gc();
            Thread.sleep(10);
        }
        assertThat(dropped.get())
                .as("the timer, bound and closed, was collected")
                .isNull();
        assertThat(scrape.samples("hourglass_timer_pending"))
                .containsExactly("hourglass_timer_pending{name=\"dropped\"} NaN");
    }

    /** Binds a timer's meters, closes the timer and keeps only a weak reference to it. */
    private WeakReference<TimerDriver> bindAndDrop() {
        TimerDriver dropped = Timers.builder().clock(clock).buildDriver(() -> {});
        TimerMetrics.of(dropped, "dropped", Tags.empty()).bindTo(scrape.registry);
        assertThat(scrape.samples("hourglass_timer_pending"))
                .containsExactly("hourglass_timer_pending{name=\"dropped\"} 0.0");
        dropped.close();
        return new WeakReference<>(dropped);
    }

    @Test
    void refusesBadInputNamingTheArgument() {
        start(Long.MAX_VALUE);
        assertThatThrownBy(() -> TimerMetrics.of(null, "a", Tags.empty())).hasMessage("timer");
        assertThatThrownBy(() -> TimerMetrics.of(timer, null, Tags.empty())).hasMessage("name");
        assertThatThrownBy(() -> TimerMetrics.of(timer, "a", null)).hasMessage("extraTags");
        assertThatThrownBy(() -> TimerMetrics.of(timer, "a", Tags.of("name", "b")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("extraTags")
                .hasMessageContaining("name=b");
    }
}
