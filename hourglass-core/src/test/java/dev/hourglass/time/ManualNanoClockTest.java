package dev.hourglass.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ManualNanoClockTest {

    @Test
    void readsItsStartUntilAdvanced() {
        ManualNanoClock clock = new ManualNanoClock(-42);
        assertThat(clock.nanoTime()).isEqualTo(-42);
        assertThat(clock.advance(2)).isEqualTo(-40);
        assertThat(clock.advance(Duration.ofMillis(1))).isEqualTo(999_960);
        assertThat(clock.nanoTime()).isEqualTo(999_960);
    }

    @Test
    void wrapsPastMaxValueLikeNanoTime() {
        ManualNanoClock clock = new ManualNanoClock(Long.MAX_VALUE - 1);
        long before = clock.nanoTime();
        clock.advance(10);
        assertThat(clock.nanoTime()).isEqualTo(Long.MIN_VALUE + 8);
        assertThat(clock.nanoTime() - before).isEqualTo(10);
    }

    @Test
    void refusesToGoBackwards() {
        ManualNanoClock clock = new ManualNanoClock(0);
        assertThatThrownBy(() -> clock.advance(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("nanos")
                .hasMessageContaining("-1");
        assertThatThrownBy(() -> clock.advance(Duration.ofNanos(-5)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("duration");
        assertThatThrownBy(() -> clock.advance((Duration) null))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("duration");
        assertThat(clock.nanoTime()).isZero();
    }

    @Test
    void onlyTheSystemClockFlows() {
        assertThat(new ManualNanoClock(0).flows()).isFalse();
        assertThat(NanoClock.system().flows()).isTrue();
        NanoClock custom = System::nanoTime;
        assertThat(custom.flows()).isTrue();
    }

    @Test
    void systemClockFollowsNanoTime() {
        long before = System.nanoTime();
        long read = NanoClock.system().nanoTime();
        assertThat(read - before).isGreaterThanOrEqualTo(0);
        assertThat(System.nanoTime() - read).isGreaterThanOrEqualTo(0);
    }
}
