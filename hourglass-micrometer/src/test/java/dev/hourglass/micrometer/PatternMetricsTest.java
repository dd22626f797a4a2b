package dev.hourglass.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hourglass.patterns.ExpiringMap;
import dev.hourglass.patterns.IdleDetector;
import dev.hourglass.queue.TimerStructure;
import dev.hourglass.time.ManualNanoClock;
import dev.hourglass.timer.TimerDriver;
import dev.hourglass.timer.Timers;
import io.micrometer.core.instrument.Tags;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The expiring map's and the idle detector's meters in a real Prometheus scrape, on a timer driven
 * by the test's own thread under a manual clock: {@code turn()} runs what is due, nothing else does.
 */
class PatternMetricsTest {

    private static final long MS = 1_000_000;

    private final ManualNanoClock clock = new ManualNanoClock(Long.MAX_VALUE - 5 * MS);
    private final Scrape scrape = new Scrape();
    private final List<String> heard = new ArrayList<>();
    private TimerDriver timer;

    @BeforeEach
    void startTimer() {
        timer = Timers.builder()
                .structure(TimerStructure.BINARY_HEAP)
                .clock(clock)
                .buildDriver(() -> {});
        assertThat(timer.bind()).isTrue();
    }

    @AfterEach
    void closeTimer() {
        timer.close();
    }

    @Test
    void theExpiringMapShowsWhatItHoldsAndHowManyExpired() {
        try (ExpiringMap<String, String> sessions = ExpiringMap.<String, String>builder(timer, clock)
                .tick(Duration.ofMillis(1))
                .expiryListener((key, value) -> heard.add(key))
                .build()) {
            ExpiringMapMetrics.of(sessions, "sessions", Tags.of("region", "eu")).bindTo(scrape.registry);
            sessions.put("a", "x", Duration.ofMillis(2));
            sessions.put("b", "x", Duration.ofMillis(2));
            sessions.put("c", "x", Duration.ofMillis(10));
            assertThat(scrape.samples("hourglass_expiring_map_"))
                    .containsExactly(
                            "hourglass_expiring_map_expirations_total{name=\"sessions\",region=\"eu\"} 0.0",
                            "hourglass_expiring_map_size{name=\"sessions\",region=\"eu\"} 3.0");

            clock.advance(2 * MS);
            timer.turn();
            assertThat(heard).containsExactlyInAnyOrder("a", "b");
            assertThat(scrape.samples("hourglass_expiring_map_"))
                    .containsExactly(
                            "hourglass_expiring_map_expirations_total{name=\"sessions\",region=\"eu\"} 2.0",
                            "hourglass_expiring_map_size{name=\"sessions\",region=\"eu\"} 1.0");
        }
    }

    @Test
    void theIdleDetectorShowsItsKeysAndHowManyWentIdle() {
        try (IdleDetector<String> idle = IdleDetector.create(timer, clock, Duration.ofMillis(3), heard::add)) {
            IdleDetectorMetrics.of(idle, "connections", Tags.empty()).bindTo(scrape.registry);
            idle.touch("a");
            idle.touch("b");
            idle.touch("c");
            clock.advance(2 * MS);
            idle.touch("c");
            clock.advance(MS);
            timer.turn();
            assertThat(heard).containsExactlyInAnyOrder("a", "b");
            assertThat(scrape.samples("hourglass_idle_"))
                    .containsExactly(
                            "hourglass_idle_detected_total{name=\"connections\"} 2.0",
                            "hourglass_idle_keys{name=\"connections\"} 1.0");
        }
    }

    @Test
    void refusesBadInputNamingTheArgument() {
        assertThatThrownBy(() -> ExpiringMapMetrics.of(null, "a", Tags.empty())).hasMessage("map");
        assertThatThrownBy(() -> IdleDetectorMetrics.of(null, "a", Tags.empty()))
                .hasMessage("detector");
        try (IdleDetector<String> idle = IdleDetector.create(timer, clock, Duration.ofMillis(3), heard::add)) {
            assertThatThrownBy(() -> IdleDetectorMetrics.of(idle, null, Tags.empty()))
                    .hasMessage("name");
        }
    }
}
