package dev.hourglass.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.function.IntToLongFunction;
import org.junit.jupiter.api.Test;

/**
 * Some of the builder's defaults are those its javadoc states (batches of 100, lease 30 s, 5
 * attempts, fallback poll 1 s, 256 deliveries in flight, claim linger 10 ms, backoff 1 s doubling
 * up to 5 min), and the backoff doubles without overflowing. No Redis needed: nothing is built.
 */
class BuilderDefaultsTest {

    @Test
    void theClaimLoopsDefaultsAreTheDocumentedOnes() {
        assertThat(RedisTimers.builder().loopSettings()).isEqualTo(new LoopSettings(100, 30_000, 5, 1_000, 256, 10));
    }

    @Test
    void theBackoffDoublesFromOneSecondUpToFiveMinutes() {
        IntToLongFunction backoff = RedisTimers.builder().backoffMillis();
        assertThat(backoff.applyAsLong(1)).isEqualTo(1_000);
        assertThat(backoff.applyAsLong(2)).isEqualTo(2_000);
        assertThat(backoff.applyAsLong(9)).isEqualTo(256_000);
        assertThat(backoff.applyAsLong(10)).as("512 s, capped").isEqualTo(300_000);
        assertThat(backoff.applyAsLong(Integer.MAX_VALUE)).isEqualTo(300_000);
    }

    @Test
    void aBackoffThatWouldOverflowIsCappedNotWrapped() {
        Duration day = Duration.ofDays(1);
        IntToLongFunction backoff = RedisTimers.builder().backoff(day, day).backoffMillis();
        for (int attempt : new int[] {2, 38, 39, 40, 41, Integer.MAX_VALUE}) {
            // Capped at a day from attempt 2 on; shifted by 37 bits or more, a day in ms overflows a long.
            assertThat(backoff.applyAsLong(attempt)).as("attempt %d", attempt).isEqualTo(day.toMillis());
        }
        // 2^26 ms shifted by 38 bits or more leaves only zeros in a long: not negative, but wrapped.
        IntToLongFunction wraps =
                RedisTimers.builder().backoff(Duration.ofMillis(1L << 26), day).backoffMillis();
        assertThat(wraps.applyAsLong(39)).isEqualTo(day.toMillis());
        assertThat(wraps.applyAsLong(41)).isEqualTo(day.toMillis());
    }

    @Test
    void setSettingsReplaceTheDefaults() {
        LoopSettings set = RedisTimers.builder()
                .batchSize(7)
                .leaseDuration(Duration.ofSeconds(3))
                .maxAttempts(2)
                .fallbackPoll(Duration.ofMillis(250))
                .maxInFlight(9)
                .claimLinger(Duration.ZERO)
                .loopSettings();
        assertThat(set).isEqualTo(new LoopSettings(7, 3_000, 2, 250, 9, 0));
    }
}
