package dev.hourglass.bench.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CoreRoundTripTest {

    @Test
    void timesRoundTripsAndLeavesNoPartnerRunning() {
        double nanos = CoreRoundTrip.nanos(1_000);

        // A round trip moves two cache lines between threads: more than nothing, far less than a
        // millisecond even on a machine as busy as CI's.
        assertThat(nanos).isGreaterThan(0).isLessThan(1_000_000);
        assertThat(Thread.getAllStackTraces().keySet())
                .noneMatch(t -> t.getName().equals("core-round-trip") && t.isAlive());
    }

    @Test
    void refusesNoTrips() {
        assertThatThrownBy(() -> CoreRoundTrip.nanos(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("trips must be positive: 0");
    }
}
