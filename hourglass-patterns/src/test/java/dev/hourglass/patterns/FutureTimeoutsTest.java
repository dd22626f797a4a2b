package dev.hourglass.patterns;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hourglass.queue.TimerStructure;
import dev.hourglass.time.ManualNanoClock;
import dev.hourglass.timer.Timer;
import dev.hourglass.timer.Timers;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link FutureTimeouts} on a real timer thread under a {@link ManualNanoClock}. */
@org.junit.jupiter.api.Timeout(60)
class FutureTimeoutsTest {

    static final Duration TIMEOUT = Duration.ofMillis(100);

    final ManualNanoClock clock = new ManualNanoClock(Long.MAX_VALUE - 50_000_000L);
    final Timer timer = Timers.builder()
            .structure(TimerStructure.HIERARCHICAL_WHEEL)
            .tick(Duration.ofMillis(1))
            .clock(clock)
            .startTimerThread();

    @AfterEach
    void closeTimer() {
        timer.close();
    }

    void settle() throws InterruptedException {
        CountDownLatch probe = new CountDownLatch(1);
        timer.schedule(probe::countDown, Duration.ZERO);
        assertThat(probe.await(10, SECONDS)).as("the settling probe ran").isTrue();
    }

    @Test
    void orTimeoutFailsTheFutureAtTheTimeoutNotBefore() throws InterruptedException {
        CompletableFuture<String> future = new CompletableFuture<>();
        assertThat(FutureTimeouts.orTimeout(timer, future, TIMEOUT)).isSameAs(future);
        assertThat(timer.stats().pending()).isEqualTo(1);

        clock.advance(TIMEOUT.toNanos() - 1);
        settle();
        assertThat(future).as("one nanosecond early").isNotDone();

        clock.advance(1);
        assertThat(future)
                .failsWithin(10, SECONDS)
                .withThrowableOfType(ExecutionException.class)
                .withCauseInstanceOf(TimeoutException.class)
                .withMessageContaining("future did not complete within PT0.1S");
        assertThat(timer.stats().pending()).isZero();
    }

    @Test
    void completeOnTimeoutCompletesWithTheValue() {
        CompletableFuture<String> future = new CompletableFuture<>();
        FutureTimeouts.completeOnTimeout(timer, future, "fallback", TIMEOUT);
        clock.advance(TIMEOUT);
        assertThat(future).succeedsWithin(10, SECONDS).isEqualTo("fallback");
    }

    @Test
    void aFutureThatCompletesFirstCancelsItsTimeout() throws InterruptedException {
        List<Consumer<CompletableFuture<String>>> endings = List.of(
                f -> f.complete("done"),
                f -> f.completeExceptionally(new IllegalStateException("failed")),
                f -> f.cancel(false));
        List<CompletableFuture<String>> futures = new ArrayList<>();
        for (Consumer<CompletableFuture<String>> ending : endings) {
            for (boolean failOnTimeout : new boolean[] {true, false}) {
                CompletableFuture<String> future = new CompletableFuture<>();
                if (failOnTimeout) {
                    FutureTimeouts.orTimeout(timer, future, TIMEOUT);
                } else {
                    FutureTimeouts.completeOnTimeout(timer, future, "fallback", TIMEOUT);
                }
                assertThat(timer.stats().pending()).isEqualTo(1);
                ending.accept(future);
                PendingCount.await(timer, 0); // cancelled at completion
                futures.add(future);
            }
        }
        clock.advance(TIMEOUT.multipliedBy(2));
        settle();
        assertThat(futures.get(0)).isCompletedWithValue("done");
        assertThat(futures.get(1)).isCompletedWithValue("done");
        for (CompletableFuture<String> failed : futures.subList(2, 4)) {
            assertThat(failed)
                    .isCompletedExceptionally()
                    .failsWithin(Duration.ZERO)
                    .withThrowableOfType(ExecutionException.class)
                    .withCauseInstanceOf(IllegalStateException.class);
        }
        for (CompletableFuture<String> cancelled : futures.subList(4, 6)) {
            assertThatThrownBy(cancelled::join).isInstanceOf(CancellationException.class);
        }
        assertThat(timer.stats().fired()).as("only the probe ran").isEqualTo(1);
    }

    @Test
    void aFutureAlreadyDoneSchedulesNothing() {
        CompletableFuture<String> done = CompletableFuture.completedFuture("x");
        assertThat(FutureTimeouts.orTimeout(timer, done, TIMEOUT)).isSameAs(done);
        assertThat(FutureTimeouts.completeOnTimeout(timer, done, "y", TIMEOUT)).isSameAs(done);
        assertThat(timer.stats().scheduled()).isZero();
        assertThat(done).isCompletedWithValue("x");
    }

    @Test
    void aCompletedFutureIsNotRetainedByTheTimer() throws InterruptedException {
        WeakReference<CompletableFuture<Object>> ref = boundAndCompleted();
        // The cancelled timeout may still sit in the timer's queue: it must not hold the future.
        for (int i = 0; i < 50 && ref.get() != null; i++) {
            System.gc(); // weak references are cleared by the collection itself: no waiting
        }
        assertThat(ref.get()).as("the completed future").isNull();
        settle();
        assertThat(timer.stats().pending()).isZero();
    }

    private WeakReference<CompletableFuture<Object>> boundAndCompleted() {
        CompletableFuture<Object> future = new CompletableFuture<>();
        FutureTimeouts.orTimeout(timer, future, Duration.ofHours(1));
        future.complete(new byte[1024]);
        return new WeakReference<>(future);
    }

    @Test
    void racesBetweenCompletionAndTimeoutEndEachFutureOnce() throws Exception {
        int count = 2_000;
        List<CompletableFuture<Integer>> futures = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            futures.add(FutureTimeouts.completeOnTimeout(timer, new CompletableFuture<>(), -1, Duration.ofNanos(i)));
        }
        Thread completer = new Thread(() -> {
            for (int i = 0; i < count; i++) {
                futures.get(i).complete(i);
            }
        });
        completer.start();
        clock.advance(Duration.ofMillis(1));
        completer.join();
        settle();
        for (int i = 0; i < count; i++) {
            assertThat(futures.get(i).join()).isIn(i, -1);
        }
        assertThat(timer.stats().pending()).isZero();
    }

    @Test
    void badInputIsRefusedWithTheArgumentNamed() {
        CompletableFuture<String> future = new CompletableFuture<>();
        assertThatThrownBy(() -> FutureTimeouts.orTimeout(null, future, TIMEOUT))
                .hasMessage("timer");
        assertThatThrownBy(() -> FutureTimeouts.orTimeout(timer, null, TIMEOUT)).hasMessage("future");
        assertThatThrownBy(() -> FutureTimeouts.orTimeout(timer, future, null)).hasMessage("timeout");
        timer.close();
        assertThatThrownBy(() -> FutureTimeouts.orTimeout(timer, future, TIMEOUT))
                .isInstanceOf(IllegalStateException.class);
        assertThat(future).as("left as it was").isNotDone();
    }
}
