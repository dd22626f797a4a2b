package dev.hourglass.patterns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import dev.hourglass.loop.EventLoop;
import dev.hourglass.queue.TimerStructure;
import dev.hourglass.time.ManualNanoClock;
import dev.hourglass.timer.Timer;
import dev.hourglass.timer.TimerBuilder;
import dev.hourglass.timer.Timers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The idle detector under a manual clock, on both drivers and on exact and wheel structures. Times
 * are multiples of the wheels' 1 ms tick, so every structure reports at the exact deadline. To show
 * that nothing was reported, a zero-delay probe on the same timer is awaited after advancing: the
 * driver runs it only after everything already due.
 */
class IdleDetectorTest {

    private static final long MS = 1_000_000;
    private static final Duration TIMEOUT = Duration.ofMillis(10);
    private static final long TIMEOUT_NANOS = TIMEOUT.toNanos();

    /** The clocks start just before the wrap, so every test also crosses Long.MAX_VALUE. */
    private static final long START = Long.MAX_VALUE - 25 * MS;

    /** One idle report: the key and the clock when onIdle ran. */
    record Report(String key, long at) {}

    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    /** Which driver runs the timer. */
    enum Driver {
        TIMER_THREAD,
        EVENT_LOOP
    }

    static Stream<Arguments> drivers() {
        List<Arguments> all = new ArrayList<>();
        for (Driver driver : Driver.values()) {
            for (TimerStructure structure : new TimerStructure[] {
                TimerStructure.BINARY_HEAP, TimerStructure.HIERARCHICAL_WHEEL, TimerStructure.HASHED_WHEEL
            }) {
                all.add(Arguments.of(driver, structure));
            }
        }
        return all.stream();
    }

    private Timer timer(Driver driver, TimerStructure structure, ManualNanoClock clock) {
        return timer(
                driver,
                Timers.builder().structure(structure).tick(Duration.ofMillis(1)).clock(clock));
    }

    private Timer timer(Driver driver, TimerBuilder builder) {
        Timer timer;
        if (driver == Driver.TIMER_THREAD) {
            timer = builder.startTimerThread();
        } else {
            EventLoop loop = EventLoop.open(builder);
            loop.start();
            timer = loop;
        }
        toClose.add(timer::close);
        return timer;
    }

    private IdleDetector<String> detector(Timer timer, ManualNanoClock clock, Consumer<? super String> onIdle) {
        IdleDetector<String> detector = IdleDetector.create(timer, clock, TIMEOUT, onIdle);
        toClose.add(detector);
        return detector;
    }

    private static Consumer<String> recorder(ManualNanoClock clock, BlockingQueue<Report> reports) {
        return key -> reports.add(new Report(key, clock.nanoTime()));
    }

    /** Waits until the driver has run everything due now. */
    private static void probe(Timer timer) throws InterruptedException {
        CountDownLatch probe = new CountDownLatch(1);
        timer.schedule(probe::countDown, Duration.ZERO);
        if (!probe.await(10, TimeUnit.SECONDS)) {
            fail("the probe did not run within 10 s");
        }
    }

    private static Report next(BlockingQueue<Report> reports) throws InterruptedException {
        Report report = reports.poll(10, TimeUnit.SECONDS);
        if (report == null) {
            fail("no idle report within 10 s");
        }
        return report;
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("drivers")
    void silentKeyIsReportedOnceAfterExactlyTheTimeout(Driver driver, TimerStructure structure) throws Exception {
        ManualNanoClock clock = new ManualNanoClock(START);
        Timer timer = timer(driver, structure, clock);
        BlockingQueue<Report> reports = new LinkedBlockingQueue<>();
        IdleDetector<String> detector = detector(timer, clock, recorder(clock, reports));

        detector.touch("a");
        assertThat(detector.contains("a")).isTrue();
        assertThat(detector.size()).isEqualTo(1);

        clock.advance(TIMEOUT_NANOS - 1);
        probe(timer);
        assertThat(reports).isEmpty();
        assertThat(detector.contains("a")).isTrue();

        clock.advance(1);
        assertThat(next(reports)).isEqualTo(new Report("a", START + TIMEOUT_NANOS));
        assertThat(detector.contains("a")).isFalse();
        assertThat(detector.size()).isZero();

        clock.advance(3 * TIMEOUT_NANOS);
        probe(timer);
        assertThat(reports).isEmpty();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("drivers")
    void touchedKeyIsKeptAndReportedTimeoutAfterItsLastTouch(Driver driver, TimerStructure structure) throws Exception {
        ManualNanoClock clock = new ManualNanoClock(START);
        Timer timer = timer(driver, structure, clock);
        BlockingQueue<Report> reports = new LinkedBlockingQueue<>();
        IdleDetector<String> detector = detector(timer, clock, recorder(clock, reports));

        detector.touch("a");
        detector.touch("b");
        // Ten touches per timeout for five timeouts: "a" stays, "b" goes.
        long lastTouch = START;
        for (int i = 1; i <= 50; i++) {
            clock.advance(MS);
            detector.touch("a");
            lastTouch = clock.nanoTime();
            if (i == TIMEOUT_NANOS / MS) {
                assertThat(next(reports)).isEqualTo(new Report("b", START + TIMEOUT_NANOS));
            }
        }
        // One timeout per key in all that time: touches make no timer call.
        assertThat(timer.stats().scheduled()).isEqualTo(2);
        probe(timer);
        assertThat(reports).isEmpty();

        clock.advance(TIMEOUT_NANOS - 1);
        probe(timer);
        assertThat(reports).isEmpty();
        clock.advance(1);
        assertThat(next(reports)).isEqualTo(new Report("a", lastTouch + TIMEOUT_NANOS));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("drivers")
    void touchAfterIdleWatchesTheKeyAgain(Driver driver, TimerStructure structure) throws Exception {
        ManualNanoClock clock = new ManualNanoClock(START);
        Timer timer = timer(driver, structure, clock);
        BlockingQueue<Report> reports = new LinkedBlockingQueue<>();
        IdleDetector<String> detector = detector(timer, clock, recorder(clock, reports));

        detector.touch("a");
        assertThat(detector.detected()).isZero();
        clock.advance(TIMEOUT_NANOS);
        assertThat(next(reports).key()).isEqualTo("a");
        assertThat(detector.detected()).isOne();
        clock.advance(5 * MS);
        detector.touch("a");
        assertThat(detector.contains("a")).isTrue();
        clock.advance(TIMEOUT_NANOS - MS);
        probe(timer);
        assertThat(reports).isEmpty();
        assertThat(detector.detected()).as("a touch is no detection").isOne();
        clock.advance(MS);
        assertThat(next(reports)).isEqualTo(new Report("a", START + 2 * TIMEOUT_NANOS + 5 * MS));
        assertThat(detector.detected()).as("found idle twice").isEqualTo(2);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("drivers")
    void removeStopsWatching(Driver driver, TimerStructure structure) throws Exception {
        ManualNanoClock clock = new ManualNanoClock(START);
        Timer timer = timer(driver, structure, clock);
        BlockingQueue<Report> reports = new LinkedBlockingQueue<>();
        IdleDetector<String> detector = detector(timer, clock, recorder(clock, reports));

        detector.touch("a");
        detector.touch("b");
        clock.advance(5 * MS);
        assertThat(detector.remove("a")).isTrue();
        assertThat(detector.remove("a")).isFalse();
        assertThat(detector.remove("never")).isFalse();
        assertThat(detector.contains("a")).isFalse();
        assertThat(detector.size()).isEqualTo(1);

        clock.advance(TIMEOUT_NANOS);
        assertThat(next(reports).key()).isEqualTo("b");
        clock.advance(3 * TIMEOUT_NANOS);
        probe(timer);
        assertThat(reports).isEmpty();
        assertThat(detector.remove("b")).isFalse();
        // Nothing is left on the timer.
        assertThat(timer.stats().pending()).isZero();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("drivers")
    void closeStopsEverythingAndRefusesTouches(Driver driver, TimerStructure structure) throws Exception {
        ManualNanoClock clock = new ManualNanoClock(START);
        Timer timer = timer(driver, structure, clock);
        BlockingQueue<Report> reports = new LinkedBlockingQueue<>();
        IdleDetector<String> detector = detector(timer, clock, recorder(clock, reports));
        for (int i = 0; i < 100; i++) {
            detector.touch("k" + i);
        }

        detector.close();

        assertThat(detector.size()).isZero();
        assertThat(detector.contains("k1")).isFalse();
        assertThat(detector.remove("k1")).isFalse();
        assertThatThrownBy(() -> detector.touch("k1"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("idle detector is closed");
        assertThatThrownBy(() -> detector.touch("new"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("idle detector is closed");
        detector.close();
        clock.advance(3 * TIMEOUT_NANOS);
        probe(timer);
        assertThat(reports).isEmpty();
        assertThat(timer.stats().pending()).isZero();
        assertThat(timer.isClosed()).isFalse();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("drivers")
    void onIdleMayTouchTheKeyToKeepIt(Driver driver, TimerStructure structure) throws Exception {
        ManualNanoClock clock = new ManualNanoClock(START);
        Timer timer = timer(driver, structure, clock);
        BlockingQueue<Report> reports = new LinkedBlockingQueue<>();
        AtomicReference<IdleDetector<String>> self = new AtomicReference<>();
        IdleDetector<String> detector = detector(timer, clock, key -> {
            boolean stillWatched = self.get().contains(key);
            self.get().touch(key);
            // Reported last: the test advances the clock as soon as it sees the report.
            reports.add(new Report(stillWatched ? "still watched: " + key : key, clock.nanoTime()));
        });
        self.set(detector);

        detector.touch("a");
        for (int round = 1; round <= 3; round++) {
            clock.advance(TIMEOUT_NANOS);
            assertThat(next(reports)).isEqualTo(new Report("a", START + round * TIMEOUT_NANOS));
        }
        assertThat(detector.contains("a")).isTrue();
    }

    @Test
    void anExceptionFromOnIdleGoesToTheHandlerAndOtherKeysAreStillReported() throws Exception {
        ManualNanoClock clock = new ManualNanoClock(START);
        BlockingQueue<Throwable> errors = new LinkedBlockingQueue<>();
        Timer timer = timer(
                Driver.TIMER_THREAD,
                Timers.builder()
                        .structure(TimerStructure.BINARY_HEAP)
                        .clock(clock)
                        .exceptionHandler((timeout, error) -> errors.add(error)));
        BlockingQueue<Report> reports = new LinkedBlockingQueue<>();
        IdleDetector<String> detector = detector(timer, clock, key -> {
            if (key.equals("bad")) {
                throw new IllegalStateException("boom");
            }
            reports.add(new Report(key, clock.nanoTime()));
        });
        detector.touch("bad");
        clock.advance(MS);
        detector.touch("good");
        clock.advance(TIMEOUT_NANOS);
        assertThat(next(reports)).isEqualTo(new Report("good", START + MS + TIMEOUT_NANOS));
        assertThat(errors.poll(10, TimeUnit.SECONDS)).hasMessage("boom");
        assertThat(detector.size()).isZero();
    }

    @Test
    void aClockReadingEqualToTheEndMarkerIsMovedOneNanosecondLater() throws Exception {
        ManualNanoClock clock = new ManualNanoClock(Long.MIN_VALUE);
        Timer timer = timer(Driver.TIMER_THREAD, TimerStructure.BINARY_HEAP, clock);
        BlockingQueue<Report> reports = new LinkedBlockingQueue<>();
        IdleDetector<String> detector = detector(timer, clock, recorder(clock, reports));

        detector.touch("a");
        assertThat(detector.contains("a")).isTrue();
        clock.advance(TIMEOUT_NANOS);
        probe(timer);
        assertThat(reports).isEmpty();
        clock.advance(1);
        assertThat(next(reports)).isEqualTo(new Report("a", Long.MIN_VALUE + TIMEOUT_NANOS + 1));
    }

    @Test
    void badInputIsRefusedWithTheArgumentNamed() {
        ManualNanoClock clock = new ManualNanoClock(START);
        Timer timer = timer(Driver.TIMER_THREAD, TimerStructure.BINARY_HEAP, clock);
        Consumer<String> ignore = key -> {};
        assertThatThrownBy(() -> IdleDetector.create(null, clock, TIMEOUT, ignore))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("timer");
        assertThatThrownBy(() -> IdleDetector.create(timer, null, TIMEOUT, ignore))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("clock");
        assertThatThrownBy(() -> IdleDetector.create(timer, clock, null, ignore))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("timeout");
        assertThatThrownBy(() -> IdleDetector.create(timer, clock, TIMEOUT, null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("onIdle");
        assertThatThrownBy(() -> IdleDetector.create(timer, clock, Duration.ZERO, ignore))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("timeout must be positive: PT0S");
        assertThatThrownBy(() -> IdleDetector.create(timer, clock, Duration.ofSeconds(-1), ignore))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("timeout must be positive: PT-1S");

        IdleDetector<String> detector = detector(timer, clock, ignore);
        assertThat(detector.timeout()).isEqualTo(TIMEOUT);
        assertThatThrownBy(() -> detector.touch(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("key");
        assertThatThrownBy(() -> detector.remove(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("key");
        assertThatThrownBy(() -> detector.contains(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("key");
        assertThat(detector.size()).isZero();

        IdleDetector<String> huge = IdleDetector.create(timer, clock, Duration.ofDays(400 * 365L), ignore);
        toClose.add(huge);
        assertThat(huge.timeout()).isEqualTo(Duration.ofDays(400 * 365L));
        huge.touch("far");
        assertThat(huge.contains("far")).isTrue();
    }

    @Test
    void aTouchOnAClosedTimerIsRefusedAndLeavesNothingWatched() {
        ManualNanoClock clock = new ManualNanoClock(START);
        Timer timer = timer(Driver.TIMER_THREAD, TimerStructure.BINARY_HEAP, clock);
        IdleDetector<String> detector = detector(timer, clock, key -> {});
        timer.close();
        assertThatThrownBy(() -> detector.touch("a")).isInstanceOf(IllegalStateException.class);
        assertThat(detector.contains("a")).isFalse();
        assertThat(detector.size()).isZero();
    }

    static Stream<Arguments> modelRuns() {
        return Stream.of(
                Arguments.of(Driver.TIMER_THREAD, TimerStructure.BINARY_HEAP, 1L),
                Arguments.of(Driver.TIMER_THREAD, TimerStructure.HIERARCHICAL_WHEEL, 2L),
                Arguments.of(Driver.EVENT_LOOP, TimerStructure.RED_BLACK_TREE, 3L),
                Arguments.of(Driver.EVENT_LOOP, TimerStructure.HIERARCHICAL_WHEEL, 4L));
    }

    /**
     * Random touches, removes and clock steps against a model that knows each key's last touch:
     * after every step the reports must be exactly the keys whose silence just reached the timeout,
     * at their exact deadline (steps and touches are on the wheels' tick boundaries).
     */
    @ParameterizedTest(name = "{0} {1} seed {2}")
    @MethodSource("modelRuns")
    void matchesAModelUnderRandomOperations(Driver driver, TimerStructure structure, long seed) throws Exception {
        ManualNanoClock clock = new ManualNanoClock(START);
        Timer timer = timer(driver, structure, clock);
        BlockingQueue<Report> reports = new LinkedBlockingQueue<>();
        IdleDetector<String> detector = detector(timer, clock, recorder(clock, reports));
        SplittableRandom random = new SplittableRandom(seed);
        Map<String, Long> model = new HashMap<>();
        try {
            for (int step = 0; step < 300; step++) {
                for (int op = random.nextInt(20); op > 0; op--) {
                    String key = "k" + random.nextInt(40);
                    if (random.nextInt(5) == 0) {
                        assertThat(detector.remove(key)).isEqualTo(model.remove(key) != null);
                    } else {
                        detector.touch(key);
                        model.put(key, clock.nanoTime());
                    }
                }
                long now = clock.advance(random.nextInt(6) * MS);
                Set<Report> expected = new HashSet<>();
                model.entrySet().removeIf(e -> {
                    boolean idle = now - e.getValue() >= TIMEOUT_NANOS;
                    if (idle) {
                        expected.add(new Report(e.getKey(), e.getValue() + TIMEOUT_NANOS));
                    }
                    return idle;
                });
                probe(timer);
                Set<Report> actual = new HashSet<>();
                reports.drainTo(actual);
                // A report is dated when it ran: the clock may have jumped past the deadline.
                assertThat(actual.stream().map(Report::key))
                        .containsExactlyInAnyOrderElementsOf(
                                expected.stream().map(Report::key).toList());
                for (Report report : actual) {
                    long deadline = expected.stream()
                            .filter(r -> r.key().equals(report.key()))
                            .findFirst()
                            .orElseThrow()
                            .at();
                    assertThat(report.at() - deadline).isBetween(0L, 5 * MS);
                }
                assertThat(detector.size()).isEqualTo(model.size());
                for (String key : model.keySet()) {
                    assertThat(detector.contains(key)).isTrue();
                }
            }
        } catch (AssertionError e) {
            throw new AssertionError("seed " + seed + ": " + e.getMessage(), e);
        }
    }

    /**
     * Threads touch and remove their own keys while another advances the clock, so touches race
     * with idle decisions. Checked: a touch is never lost (right after a touch returns, its key is
     * watched unless the clock has since passed the timeout); after the race, a key whose last
     * operation was a touch has been reported after that touch began, and nothing stays watched.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("stressRuns")
    void touchesRacingWithIdleDecisionsAreNeverLost(Driver driver, TimerStructure structure) throws Exception {
        long seed = TestSeeds.seed(4);
        ManualNanoClock clock = new ManualNanoClock(START);
        Timer timer = timer(
                driver,
                Timers.builder()
                        .structure(structure)
                        .tick(Duration.ofNanos(50_000))
                        .clock(clock));
        int threads = 3;
        int keysPerThread = 100;
        long timeout = 1 * MS;
        Map<Integer, AtomicLong> reportsPerKey = new ConcurrentHashMap<>();
        AtomicLong sequence = new AtomicLong();
        Map<Integer, Long> lastReportSeq = new ConcurrentHashMap<>();
        IdleDetector<Integer> detector = IdleDetector.create(timer, clock, Duration.ofNanos(timeout), key -> {
            reportsPerKey.computeIfAbsent(key, k -> new AtomicLong()).incrementAndGet();
            lastReportSeq.put(key, sequence.incrementAndGet());
        });
        toClose.add(detector);
        AtomicBoolean stop = new AtomicBoolean();
        List<String> violations = new CopyOnWriteArrayList<>();
        long[][] lastTouchSeq = new long[threads][keysPerThread];
        boolean[][] lastWasTouch = new boolean[threads][keysPerThread];
        CyclicBarrier start = new CyclicBarrier(threads + 1);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int owner = t;
            Thread worker = new Thread(() -> {
                SplittableRandom random = new SplittableRandom(seed + owner);
                try {
                    start.await();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                while (!stop.get()) {
                    int index = random.nextInt(keysPerThread);
                    int key = owner * keysPerThread + index;
                    if (random.nextInt(10) == 0) {
                        detector.remove(key);
                        lastWasTouch[owner][index] = false;
                    } else {
                        lastTouchSeq[owner][index] = sequence.incrementAndGet();
                        long before = clock.nanoTime();
                        detector.touch(key);
                        lastWasTouch[owner][index] = true;
                        boolean watched = detector.contains(key);
                        long after = clock.nanoTime();
                        if (!watched && after - before < timeout) {
                            violations.add("key " + key + " not watched " + (after - before) + " ns after a touch");
                        }
                    }
                }
            });
            worker.start();
            workers.add(worker);
        }
        start.await();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1500);
        SplittableRandom random = new SplittableRandom(seed);
        while (System.nanoTime() - deadline < 0) {
            // Big steps bring many keys due at once, so the decisions meet touches of the same keys.
            clock.advance(random.nextLong(timeout / 4, timeout / 2));
            probe(timer);
        }
        stop.set(true);
        for (Thread worker : workers) {
            worker.join(10_000);
        }
        clock.advance(timeout + MS);
        probe(timer);
        clock.advance(MS);
        probe(timer);

        assertThat(violations).as("seed " + seed).isEmpty();
        assertThat(detector.size()).as("seed " + seed).isZero();
        long totalReports = 0;
        for (int t = 0; t < threads; t++) {
            for (int i = 0; i < keysPerThread; i++) {
                int key = t * keysPerThread + i;
                Long reported = lastReportSeq.get(key);
                if (lastWasTouch[t][i]) {
                    assertThat(reported)
                            .as("seed %d: key %d, last touched at seq %d", seed, key, lastTouchSeq[t][i])
                            .isNotNull()
                            .isGreaterThan(lastTouchSeq[t][i]);
                }
            }
        }
        for (AtomicLong count : reportsPerKey.values()) {
            totalReports += count.get();
        }
        assertThat(totalReports).as("seed " + seed).isPositive();
        assertThat(timer.stats().pending()).as("seed " + seed).isZero();
    }

    static Stream<Arguments> stressRuns() {
        return Stream.of(
                Arguments.of(Driver.TIMER_THREAD, TimerStructure.BINARY_HEAP),
                Arguments.of(Driver.EVENT_LOOP, TimerStructure.HIERARCHICAL_WHEEL));
    }
}
