package dev.hourglass.bench.map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * The bytes per entry of Hourglass's expiring map against Caffeine's with variable expiry, exact by
 * JOL, at a size where the fixed parts weigh and at one where the entries do.
 */
class MapFootprintTest {

    @Test
    void hourglassHoldsNoMoreBytesPerEntryThanCaffeine() {
        for (int n : new int[] {10_000, 100_000}) {
            double hourglass = MapFootprint.bytesPerEntry("HOURGLASS", n);
            double caffeine = MapFootprint.bytesPerEntry("CAFFEINE", n);
            System.out.printf("bytes per entry at %d: Hourglass %.1f, Caffeine %.1f%n", n, hourglass, caffeine);
            assertThat(hourglass).as("Hourglass at %d", n).isPositive().isLessThanOrEqualTo(caffeine);
        }
    }

    @Test
    void badInputIsRefused() {
        assertThatThrownBy(() -> MapFootprint.bytesPerEntry("GUAVA", 10))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("impl must be HOURGLASS or CAFFEINE: GUAVA");
        assertThatThrownBy(() -> MapFootprint.bytesPerEntry("HOURGLASS", 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("n must be positive: 0");
    }
}
