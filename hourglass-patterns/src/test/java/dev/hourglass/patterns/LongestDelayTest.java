package dev.hourglass.patterns;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hourglass.time.ManualNanoClock;
import dev.hourglass.timer.Timeout;
import dev.hourglass.timer.Timer;
import dev.hourglass.timer.Timers;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The timer and the patterns read delays alike: zero or less means now, and anything longer than
 * {@link Timer#MAX_DELAY_NANOS} saturates to it instead of being refused.
 */
class LongestDelayTest {

    private static final Duration CENTURIES = Duration.ofDays(400 * 365L);

    private final ManualNanoClock clock = new ManualNanoClock(Long.MAX_VALUE - 1_000_000_000L);
    private final Timer timer = Timers.builder().clock(clock).startTimerThread();

    @AfterEach
    void closeTimer() {
        timer.close();
    }

    private void settle() throws InterruptedException {
        CountDownLatch probe = new CountDownLatch(1);
        timer.schedule(probe::countDown, Duration.ZERO);
        assertThat(probe.await(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void theTimerSaturatesAndRunsANegativeDelayNow() throws InterruptedException {
        Timeout far = timer.schedule(() -> {}, CENTURIES);
        assertThat(far.remaining(TimeUnit.NANOSECONDS)).isEqualTo(Timer.MAX_DELAY_NANOS);
        Timeout farByUnit = timer.schedule(() -> {}, Long.MAX_VALUE, TimeUnit.DAYS);
        assertThat(farByUnit.remaining(TimeUnit.NANOSECONDS)).isEqualTo(Timer.MAX_DELAY_NANOS);
        CountDownLatch ran = new CountDownLatch(2);
        timer.schedule(ran::countDown, Duration.ofSeconds(-5));
        timer.schedule(ran::countDown, -1, TimeUnit.MILLISECONDS);
        assertThat(ran.await(10, TimeUnit.SECONDS))
                .as("negative delays run without the clock moving")
                .isTrue();
    }

    @Test
    void futureTimeoutsSaturateAndTimeOutANegativeTimeoutNow() throws Exception {
        CompletableFuture<String> now =
                FutureTimeouts.orTimeout(timer, new CompletableFuture<>(), Duration.ofMillis(-5));
        assertThat(catchTimeout(now)).isInstanceOf(TimeoutException.class);
        CompletableFuture<String> never = FutureTimeouts.orTimeout(timer, new CompletableFuture<>(), CENTURIES);
        clock.advance(Duration.ofDays(100 * 365L));
        settle();
        assertThat(never).isNotDone();
    }

    private static Throwable catchTimeout(CompletableFuture<String> future) throws InterruptedException {
        try {
            future.get(10, TimeUnit.SECONDS);
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (TimeoutException e) {
            throw new AssertionError("the future did not time out", e);
        }
    }

    @Test
    void anExpiringMapExpiresANegativeTtlAtOnceAndSaturatesALongOne() {
        List<String> expired = new CopyOnWriteArrayList<>();
        try (ExpiringMap<String, Integer> map = ExpiringMap.<String, Integer>builder(timer, clock)
                .expiryListener((key, value) -> expired.add(key))
                .build()) {
            map.put("gone", 1, Duration.ofMillis(-1));
            assertThat(map.containsKey("gone")).isFalse();
            assertThat(expired).containsExactly("gone");
            map.put("kept", 2, CENTURIES);
            assertThat(map.ttl("kept")).get().isEqualTo(Duration.ofNanos(Timer.MAX_DELAY_NANOS));
        }
    }

    @Test
    void cooldownsAndCountdownsSaturateLikeTheTimer() {
        try (Cooldowns<String> cooldowns = Cooldowns.<String>builder(timer, clock)
                .ability("eternal", CENTURIES)
                .build()) {
            assertThat(cooldowns.cooldown("eternal")).isEqualTo(Duration.ofNanos(Timer.MAX_DELAY_NANOS));
        }
        try (Countdown endless = Countdown.builder(timer, clock)
                .duration(CENTURIES)
                .interval(CENTURIES)
                .start()) {
            assertThat(endless.remaining()).isEqualTo(Duration.ofNanos(Timer.MAX_DELAY_NANOS));
        }
        try (Countdown done = Countdown.builder(timer, clock)
                .duration(Duration.ofSeconds(-2))
                .interval(Duration.ofSeconds(1))
                .start()) {
            assertThat(done.remaining()).isEqualTo(Duration.ZERO);
        }
    }
}
