package dev.hourglass.patterns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hourglass.queue.TimerStructure;
import dev.hourglass.time.ManualNanoClock;
import dev.hourglass.timer.Timer;
import dev.hourglass.timer.Timers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class CountdownTest {

    private static final long SECOND = 1_000_000_000L;

    private ManualNanoClock clock = new ManualNanoClock(-5_000);
    private Timer timer;
    private final ConcurrentLinkedQueue<Throwable> thrown = new ConcurrentLinkedQueue<>();
    /** Each call: {tick, due, clock reading during the call, ticksLeft during the call}; tick 0 = completion. */
    private final List<long[]> calls = new ArrayList<>();

    private Countdown countdown;

    @AfterEach
    void closeTimer() {
        if (timer != null) {
            timer.close();
        }
        assertThat(thrown).isEmpty();
    }

    private CountdownBuilder builder() {
        if (timer == null) {
            timer = Timers.builder()
                    .structure(TimerStructure.BINARY_HEAP)
                    .clock(clock)
                    .exceptionHandler((timeout, error) -> thrown.add(error))
                    .startTimerThread();
        }
        return Countdown.builder(timer, clock)
                .onTick((tick, due) -> record(tick, due))
                .onComplete(() -> record(0, 0));
    }

    private void record(long tick, long due) {
        long left = countdown == null ? -1 : countdown.ticksLeft();
        synchronized (calls) {
            calls.add(new long[] {tick, due, clock.nanoTime(), left});
        }
    }

    private List<long[]> calls() {
        synchronized (calls) {
            return new ArrayList<>(calls);
        }
    }

    private void drain() throws InterruptedException {
        CountDownLatch probe = new CountDownLatch(1);
        timer.schedule(probe::countDown, Duration.ZERO);
        assertThat(probe.await(10, TimeUnit.SECONDS)).as("probe ran").isTrue();
    }

    private void advance(long nanos) throws InterruptedException {
        clock.advance(nanos);
        drain();
    }

    private Countdown start(long durationNanos, long intervalNanos) {
        countdown = builder()
                .duration(Duration.ofNanos(durationNanos))
                .interval(Duration.ofNanos(intervalNanos))
                .start();
        return countdown;
    }

    @Test
    void tenThousandTicksInOddStepsWithPausesDoNotDrift() throws InterruptedException {
        long seed = TestSeeds.seed(1);
        try {
            noDrift(seed);
        } catch (AssertionError e) {
            throw new AssertionError("seed " + seed + ": " + e.getMessage(), e);
        }
    }

    private void noDrift(long seed) throws InterruptedException {
        SplittableRandom random = new SplittableRandom(seed);
        long interval = 1_000_003;
        long total = 10_000;
        long duration = (total + 1) * interval - 17; // ticks 1..10000, the end 17 ns before tick 10001
        clock = new ManualNanoClock(Long.MAX_VALUE - 4_000 * interval); // wraps on the way
        long start = clock.nanoTime();
        start(duration, interval);
        long shifted = start;
        long paused = 0;
        int checked = 0;
        while (true) {
            long now = clock.nanoTime();
            long end = shifted + duration;
            if (end - now <= 3 * interval) {
                break;
            }
            if (random.nextInt(1_000) == 0) {
                countdown.pause();
                long pause = random.nextLong(5 * interval);
                advance(pause);
                assertThat(calls()).as("nothing while paused").hasSize(checked);
                countdown.resume();
                shifted += pause;
                paused += pause;
                continue;
            }
            advance(1 + random.nextLong(3 * interval));
            now = clock.nanoTime();
            List<long[]> got = calls();
            long expectedCount = Math.min(total, (now - shifted) / interval);
            assertThat((long) got.size())
                    .as("ticks delivered at elapsed %d", now - shifted)
                    .isEqualTo(expectedCount);
            for (; checked < got.size(); checked++) {
                long[] call = got.get(checked);
                long k = checked + 1;
                assertThat(call[0]).isEqualTo(k);
                assertThat(call[1]).as("due of tick %d", k).isEqualTo(shifted + k * interval);
                assertThat(call[2] - call[1]).as("never early").isNotNegative();
                assertThat(call[3]).as("ticks left during tick %d", k).isEqualTo(total - k);
            }
        }
        long end = shifted + duration;
        advance(end - clock.nanoTime() - 1);
        assertThat(countdown.state()).isEqualTo(CountdownState.RUNNING);
        assertThat(countdown.remaining()).isEqualTo(Duration.ofNanos(1));
        assertThat(calls()).hasSize((int) total);
        advance(1);
        List<long[]> got = calls();
        assertThat(got).hasSize((int) total + 1);
        long[] completion = got.get((int) total);
        assertThat(completion[0]).as("completion last").isZero();
        assertThat(completion[2])
                .as("completion exactly at start + duration + paused")
                .isEqualTo(start + duration + paused);
        assertThat(countdown.state()).isEqualTo(CountdownState.COMPLETED);
        assertThat(countdown.remaining()).isZero();
        assertThat(countdown.ticksLeft()).isZero();
        advance(10 * interval);
        assertThat(calls()).hasSize((int) total + 1);
        assertThat(timer.stats().pending()).isZero();
    }

    @Test
    void aLateTimerDeliversEachMissedTickInOrderThenTheCompletion() throws InterruptedException {
        long start = clock.nanoTime();
        start(10 * SECOND, SECOND);
        advance(5 * SECOND + SECOND / 2);
        List<long[]> got = calls();
        assertThat(got).extracting(c -> c[0]).containsExactly(1L, 2L, 3L, 4L, 5L);
        assertThat(got)
                .extracting(c -> c[1])
                .containsExactly(
                        start + SECOND, start + 2 * SECOND, start + 3 * SECOND, start + 4 * SECOND, start + 5 * SECOND);
        assertThat(countdown.ticksLeft()).isEqualTo(4);
        advance(100 * SECOND);
        assertThat(calls()).extracting(c -> c[0]).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 0L);
    }

    @Test
    void resumeContinuesTheInterruptedInterval() throws InterruptedException {
        long start = clock.nanoTime();
        start(10 * SECOND, SECOND);
        advance(2 * SECOND + SECOND / 2);
        countdown.pause();
        assertThat(countdown.state()).isEqualTo(CountdownState.PAUSED);
        assertThat(countdown.remaining()).isEqualTo(Duration.ofMillis(7_500));
        advance(100 * SECOND);
        assertThat(calls()).hasSize(2);
        assertThat(countdown.remaining()).isEqualTo(Duration.ofMillis(7_500));
        assertThat(timer.stats().pending()).as("no timer while paused").isZero();
        countdown.resume();
        advance(SECOND / 2 - 1);
        assertThat(calls()).hasSize(2);
        advance(1);
        assertThat(calls()).hasSize(3);
        assertThat(calls().get(2)[1]).isEqualTo(start + 3 * SECOND + 100 * SECOND);
        advance(7 * SECOND - 1);
        assertThat(countdown.state()).isEqualTo(CountdownState.RUNNING);
        advance(1);
        assertThat(countdown.state()).isEqualTo(CountdownState.COMPLETED);
        assertThat(calls().get(calls().size() - 1)[2]).isEqualTo(start + 110 * SECOND);
    }

    @Test
    void ticksComeStrictlyBeforeTheEnd() throws InterruptedException {
        start(3 * SECOND, SECOND);
        assertThat(countdown.ticksLeft()).isEqualTo(2);
        advance(3 * SECOND);
        assertThat(calls()).extracting(c -> c[0]).containsExactly(1L, 2L, 0L);

        calls.clear();
        start(SECOND / 2, SECOND);
        advance(SECOND / 2);
        assertThat(calls()).extracting(c -> c[0]).containsExactly(0L);

        calls.clear();
        start(0, SECOND);
        drain();
        assertThat(calls()).extracting(c -> c[0]).containsExactly(0L);
        assertThat(countdown.state()).isEqualTo(CountdownState.COMPLETED);
    }

    @Test
    void cancelStopsEverything() throws InterruptedException {
        start(10 * SECOND, SECOND);
        advance(SECOND + SECOND / 4);
        assertThat(countdown.cancel()).isTrue();
        assertThat(countdown.cancel()).isFalse();
        assertThat(countdown.state()).isEqualTo(CountdownState.CANCELLED);
        assertThat(countdown.remaining()).isEqualTo(Duration.ofMillis(8_750));
        drain();
        assertThat(timer.stats().pending()).as("cancel cancels the timeout").isZero();
        advance(20 * SECOND);
        assertThat(calls()).extracting(c -> c[0]).containsExactly(1L);
        assertThat(timer.stats().pending()).isZero();
        assertThatThrownBy(countdown::resume).isInstanceOf(IllegalStateException.class);

        calls.clear();
        start(10 * SECOND, SECOND);
        countdown.pause();
        assertThat(countdown.cancel()).as("a paused countdown cancels too").isTrue();
        assertThat(countdown.remaining()).isEqualTo(Duration.ofSeconds(10));

        start(0, SECOND);
        drain();
        assertThat(countdown.cancel()).as("completed").isFalse();
    }

    @Test
    void callbacksMayPauseAndCancel() throws InterruptedException {
        AtomicLong lastTick = new AtomicLong();
        Countdown[] self = new Countdown[1];
        self[0] = builder()
                .duration(Duration.ofSeconds(10))
                .interval(Duration.ofSeconds(1))
                .onTick((tick, due) -> {
                    lastTick.set(tick);
                    if (tick == 3) {
                        self[0].pause();
                    }
                })
                .start();
        advance(6 * SECOND);
        assertThat(lastTick).hasValue(3);
        assertThat(self[0].state()).isEqualTo(CountdownState.PAUSED);
        self[0].resume();
        drain();
        assertThat(lastTick).as("the ticks due before the pause follow at once").hasValue(6);
    }

    @Test
    void aThrowingTickGoesToTheTimerAndTheCountdownGoesOn() throws InterruptedException {
        List<Long> ticks = new ArrayList<>();
        timer = Timers.builder()
                .structure(TimerStructure.BINARY_HEAP)
                .clock(clock)
                .exceptionHandler((timeout, error) -> ticks.add(-1L))
                .startTimerThread();
        countdown = Countdown.builder(timer, clock)
                .duration(Duration.ofSeconds(4))
                .interval(Duration.ofSeconds(1))
                .onTick((tick, due) -> {
                    ticks.add(tick);
                    if (tick == 1) {
                        throw new IllegalStateException("boom");
                    }
                })
                .onComplete(() -> ticks.add(0L))
                .start();
        advance(4 * SECOND);
        drain();
        assertThat(ticks).containsExactly(1L, -1L, 2L, 3L, 0L);
    }

    @Test
    void badInputIsNamed() throws InterruptedException {
        CountdownBuilder builder = builder();
        assertThatThrownBy(() -> builder.interval(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("interval")
                .hasMessageContaining("PT0S");
        assertThatThrownBy(() -> builder.interval(Duration.ofMillis(-1))).hasMessageContaining("PT-0.001S");
        assertThatThrownBy(() -> builder.onTick(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> builder.onComplete(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> builder.duration(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> Countdown.builder(null, clock)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(builder::start)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("duration not set");
        builder.duration(Duration.ofSeconds(1));
        assertThatThrownBy(builder::start).hasMessageContaining("interval not set");

        start(10 * SECOND, SECOND);
        assertThatThrownBy(countdown::resume)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not paused: RUNNING");
        countdown.pause();
        assertThatThrownBy(countdown::pause)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not running: PAUSED");
        countdown.resume();
        advance(10 * SECOND);
        assertThatThrownBy(countdown::pause).hasMessageContaining("not running: COMPLETED");
        timer.close();
        assertThatThrownBy(() -> start(SECOND, SECOND)).isInstanceOf(IllegalStateException.class);
        timer = null;
    }

    @Test
    void pauseResumeAndCancelFromManyThreadsKeepTheTicksInOrder() throws Exception {
        long seed = TestSeeds.seed(2);
        long total = 2_000;
        AtomicInteger completions = new AtomicInteger();
        List<Long> ticks = new ArrayList<>();
        AtomicBoolean early = new AtomicBoolean();
        timer = Timers.builder()
                .structure(TimerStructure.BINARY_HEAP)
                .clock(clock)
                .exceptionHandler((timeout, error) -> thrown.add(error))
                .startTimerThread();
        countdown = Countdown.builder(timer, clock)
                .duration(Duration.ofMillis(total + 1))
                .interval(Duration.ofMillis(1))
                .onTick((tick, due) -> {
                    synchronized (ticks) {
                        ticks.add(tick);
                    }
                    if (clock.nanoTime() - due < 0) {
                        early.set(true);
                    }
                })
                .onComplete(completions::incrementAndGet)
                .start();
        ExecutorService pool = Executors.newFixedThreadPool(3);
        AtomicBoolean stop = new AtomicBoolean();
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < 3; t++) {
                long threadSeed = seed + t;
                futures.add(pool.submit(() -> {
                    SplittableRandom random = new SplittableRandom(threadSeed);
                    while (!stop.get()) {
                        try {
                            if (random.nextBoolean()) {
                                countdown.pause();
                            } else {
                                countdown.resume();
                            }
                        } catch (IllegalStateException expected) {
                            // the other thread got there first
                        }
                        countdown.remaining();
                        countdown.ticksLeft();
                    }
                    return null;
                }));
            }
            for (int i = 0; i < 3_000 && countdown.state() != CountdownState.COMPLETED; i++) {
                clock.advance(Duration.ofMillis(1));
            }
            stop.set(true);
            for (Future<?> future : futures) {
                future.get(10, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        if (countdown.state() == CountdownState.PAUSED) {
            countdown.resume();
        }
        advance(TimeUnit.MILLISECONDS.toNanos(total + 10));
        assertThat(completions).as("seed " + seed).hasValue(1);
        assertThat(early).as("seed " + seed).isFalse();
        synchronized (ticks) {
            assertThat(ticks).as("seed " + seed).hasSize((int) total);
            for (int i = 0; i < ticks.size(); i++) {
                assertThat(ticks.get(i)).as("seed " + seed).isEqualTo(i + 1L);
            }
        }
    }
}
