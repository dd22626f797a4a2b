package dev.hourglass.bench.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class CoreRoundTripTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void timesRoundTripsAndLeavesNoPartnerRunning() {
        double nanos = CoreRoundTrip.nanos(1_000, SECOND);

        assertThat(nanos).isPositive().isFinite();
        assertThat(Thread.getAllStackTraces().keySet())
                .noneMatch(t -> t.getName().equals("core-round-trip") && t.isAlive());
    }

    @Test
    void stopsAtItsTimeLimit() {
        // Without the limit, two billion round trips would take minutes at the least.
        double nanos = assertTimeoutPreemptively(
                Duration.ofSeconds(30), () -> CoreRoundTrip.nanos(Integer.MAX_VALUE, 10_000_000));

        assertThat(nanos).isPositive().isFinite();
    }

    @Test
    void refusesNoTripsAndNoTime() {
        assertThatThrownBy(() -> CoreRoundTrip.nanos(0, SECOND))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("trips must be positive: 0");
        assertThatThrownBy(() -> CoreRoundTrip.nanos(1, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("limitNanos must be positive: 0");
    }
}
