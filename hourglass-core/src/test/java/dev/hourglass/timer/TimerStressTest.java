package dev.hourglass.timer;

import static java.util.concurrent.TimeUnit.NANOSECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hourglass.queue.TimerStructure;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Real threads on the real system clock, against a driver made by a subclass: producer threads
 * schedule, cancel and reschedule timeouts with delays of a few milliseconds, so that cancels and
 * reschedules race with firing, and every outcome is checked afterwards: a timeout whose cancel()
 * returned true never ran, every other one ran exactly once and never before its latest deadline,
 * and nothing is left pending. The lower bound of each deadline is the producer's clock reading
 * taken before the call plus the delay; the driver reads the same clock later, so its deadline can
 * only be later.
 */
@org.junit.jupiter.api.Timeout(300)
abstract class TimerStressTest {

    static final int PRODUCERS = 4;
    static final int TIMEOUTS = 1_000_000;
    static final long AWAIT_SECONDS = 60;

    /** An exact structure and the default wheel. */
    @Target(ElementType.METHOD)
    @Retention(RetentionPolicy.RUNTIME)
    @ParameterizedTest(name = "{0}")
    @EnumSource(
            value = TimerStructure.class,
            names = {"QUATERNARY_HEAP", "HIERARCHICAL_WHEEL"})
    @interface TwoStructures {}

    /** Starts the driver under test on the system clock. */
    abstract Timer newTimer(TimerBuilder builder);

    private final List<Throwable> handled = new CopyOnWriteArrayList<>();

    private Timer start(TimerStructure structure, ExecutorService executor) {
        TimerBuilder builder = Timers.builder()
                .structure(structure)
                .tick(Duration.ofMillis(1))
                .exceptionHandler((timeout, error) -> handled.add(error));
        if (executor != null) {
            builder.executor(executor);
        }
        return newTimer(builder);
    }

    private static void runAll(List<Runnable> producers) throws InterruptedException {
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        for (int i = 0; i < producers.size(); i++) {
            Thread thread = new Thread(producers.get(i), "producer-" + i);
            thread.setUncaughtExceptionHandler((t, e) -> failures.add(e));
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join(SECONDS.toMillis(AWAIT_SECONDS));
            assertThat(thread.isAlive()).as(thread.getName() + " finished").isFalse();
        }
        assertThat(failures).isEmpty();
    }

    @TwoStructures
    void aMillionOneShotTimeoutsFromFourThreads(TimerStructure structure) throws InterruptedException {
        Timer timer = start(structure, null);
        long[] earliest = new long[TIMEOUTS];
        long[] ranAt = new long[TIMEOUTS];
        boolean[] cancelled = new boolean[TIMEOUTS];
        AtomicIntegerArray runs = new AtomicIntegerArray(TIMEOUTS);
        AtomicLong cancels = new AtomicLong();
        AtomicLong reschedules = new AtomicLong();
        // Counted down once per run and once per successful cancel: exactly TIMEOUTS if all is well.
        CountDownLatch settled = new CountDownLatch(TIMEOUTS);
        // 10 ms: a recent timeout picked by a producer slowed to a few µs per step (four producers and
        // the timer on two cores) is still pending often enough for the cancels below to win.
        long maxDelay = 10_000_000;
        int window = 1024;

        List<Runnable> producers = new ArrayList<>();
        for (int p = 0; p < PRODUCERS; p++) {
            int first = p * (TIMEOUTS / PRODUCERS);
            int last = first + TIMEOUTS / PRODUCERS;
            SplittableRandom random = new SplittableRandom(1000 + p);
            producers.add(() -> {
                Timeout[] recent = new Timeout[window];
                int[] recentIds = new int[window];
                for (int id = first; id < last; id++) {
                    int self = id;
                    long delay = random.nextLong(maxDelay);
                    long before = System.nanoTime();
                    Timeout timeout = timer.schedule(
                            () -> {
                                if (runs.incrementAndGet(self) == 1) {
                                    ranAt[self] = System.nanoTime();
                                }
                                settled.countDown();
                            },
                            delay,
                            NANOSECONDS);
                    earliest[id] = before + delay;
                    recent[id % window] = timeout;
                    recentIds[id % window] = id;

                    // Act on one of this producer's recent timeouts: it may be firing right now.
                    int pick = random.nextInt(window);
                    Timeout other = recent[pick];
                    int otherId = recentIds[pick];
                    int action = random.nextInt(10);
                    if (other == null) {
                        continue;
                    }
                    if (action < 3) {
                        if (other.cancel()) {
                            cancelled[otherId] = true;
                            cancels.incrementAndGet();
                            settled.countDown();
                        }
                    } else if (action < 7) {
                        long newDelay = random.nextLong(maxDelay + maxDelay / 2);
                        long rescheduledAt = System.nanoTime();
                        if (other.reschedule(newDelay, NANOSECONDS)) {
                            earliest[otherId] = rescheduledAt + newDelay;
                            reschedules.incrementAndGet();
                        }
                    }
                }
            });
        }
        runAll(producers);
        assertThat(settled.await(AWAIT_SECONDS, SECONDS))
                .as("every timeout ran or was cancelled; %s left", settled.getCount())
                .isTrue();
        List<Timeout> left = timer.stop();

        assertThat(left).isEmpty();
        for (int id = 0; id < TIMEOUTS; id++) {
            if (cancelled[id]) {
                assertThat(runs.get(id)).as("runs of cancelled timeout %s", id).isZero();
            } else {
                assertThat(runs.get(id)).as("runs of timeout %s", id).isOne();
                assertThat(ranAt[id] - earliest[id])
                        .as("timeout %s ran this many ns after its latest deadline", id)
                        .isNotNegative();
            }
        }
        TimerStats stats = timer.stats();
        assertThat(stats.pending()).isZero();
        assertThat(stats.scheduled()).isEqualTo(TIMEOUTS);
        assertThat(stats.cancelled()).isEqualTo(cancels.get());
        assertThat(stats.fired()).isEqualTo(TIMEOUTS - cancels.get());
        assertThat(cancels.get()).as("cancels that won").isGreaterThan(TIMEOUTS / 10);
        assertThat(reschedules.get()).as("reschedules that won").isGreaterThan(TIMEOUTS / 10);
        assertThat(handled).isEmpty();
    }

    /** A periodic task that counts its runs and checks it never overlaps itself. */
    static final class Periodic implements Runnable {
        final AtomicInteger starts = new AtomicInteger();
        private final AtomicInteger active = new AtomicInteger();
        final AtomicInteger maxActive = new AtomicInteger();
        final AtomicLong total;
        volatile int startsWhenCancelled = -1;
        volatile Timeout timeout;

        Periodic(AtomicLong total) {
            this.total = total;
        }

        @Override
        public void run() {
            maxActive.accumulateAndGet(active.incrementAndGet(), Math::max);
            starts.incrementAndGet();
            total.incrementAndGet();
            Thread.yield(); // widen the window in which a second run could overlap
            active.decrementAndGet();
        }
    }

    @TwoStructures
    void periodicTimeoutsOnAnExecutorRaceCancelRescheduleAndClose(TimerStructure structure)
            throws InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        Timer timer = start(structure, pool);
        int perProducer = 250;
        int rounds = 100;
        long runsPerRound = 1000;
        int opsPerRound = 50;
        AtomicLong totalRuns = new AtomicLong();
        List<Periodic> all = Collections.synchronizedList(new ArrayList<>());
        List<Runnable> producers = new ArrayList<>();
        for (int p = 0; p < PRODUCERS; p++) {
            SplittableRandom random = new SplittableRandom(2000 + p);
            producers.add(() -> {
                List<Periodic> mine = new ArrayList<>();
                for (int i = 0; i < perProducer; i++) {
                    Periodic periodic = new Periodic(totalRuns);
                    long initial = random.nextLong(2_000_000);
                    long period = 200_000 + random.nextLong(2_000_000);
                    periodic.timeout = random.nextBoolean()
                            ? timer.scheduleAtFixedRate(periodic, initial, period, NANOSECONDS)
                            : timer.scheduleWithFixedDelay(periodic, initial, period, NANOSECONDS);
                    mine.add(periodic);
                }
                all.addAll(mine);
                int cancelsLeft = perProducer / 5;
                // Bursts of operations paced by the runs, so that runs and operations interleave
                // whatever the relative speed of the threads; runs that stall fail the test.
                for (int round = 1; round <= rounds; round++) {
                    long giveUp = System.nanoTime() + SECONDS.toNanos(AWAIT_SECONDS);
                    while (totalRuns.get() < round * runsPerRound) {
                        assertThat(System.nanoTime() - giveUp)
                                .as("runs stalled at %s", totalRuns.get())
                                .isNegative();
                        Thread.yield();
                    }
                    for (int op = 0; op < opsPerRound; op++) {
                        Periodic periodic = mine.get(random.nextInt(mine.size()));
                        int action = random.nextInt(100);
                        if (action < 5 && cancelsLeft > 0) {
                            // Read the count first: a run that started before cancel() returned
                            // may still be counting itself, but none may start after it.
                            int before = periodic.starts.get();
                            if (periodic.timeout.cancel()) {
                                periodic.startsWhenCancelled = before;
                                cancelsLeft--;
                            }
                        } else if (action < 50) {
                            periodic.timeout.reschedule(random.nextLong(3_000_000), NANOSECONDS);
                        }
                    }
                }
            });
        }
        runAll(producers);
        List<Timeout> left = timer.stop();
        pool.shutdown();
        assertThat(pool.awaitTermination(AWAIT_SECONDS, SECONDS)).isTrue();

        Set<Timeout> closed = Collections.newSetFromMap(new ConcurrentHashMap<>());
        closed.addAll(left);
        assertThat(closed).hasSameSizeAs(left);
        int userCancelled = 0;
        for (Periodic periodic : all) {
            assertThat(periodic.maxActive.get()).as("runs at once").isLessThanOrEqualTo(1);
            assertThat(periodic.timeout.isCancelled())
                    .as("cancelled by the user or by close")
                    .isTrue();
            if (periodic.startsWhenCancelled >= 0) {
                userCancelled++;
                assertThat(closed).doesNotContain(periodic.timeout);
                assertThat(periodic.starts.get() - periodic.startsWhenCancelled)
                        .as("runs started after cancel() (at most one already under way)")
                        .isLessThanOrEqualTo(1);
            }
        }
        assertThat(userCancelled).isPositive();
        assertThat(all).filteredOn(periodic -> periodic.starts.get() > 10).hasSizeGreaterThan(all.size() / 2);
        assertThat(left).isNotEmpty();
        assertThat(timer.stats().pending()).isZero();
        assertThat(timer.stats().cancelled()).isEqualTo(all.size());
        assertThat(handled).isEmpty();
    }

    @TwoStructures
    void closeWhileFourThreadsScheduleLosesNothing(TimerStructure structure) throws InterruptedException {
        Timer timer = start(structure, null);
        List<List<Timeout>> returned = new ArrayList<>();
        Set<Runnable> ran = ConcurrentHashMap.newKeySet();
        AtomicLong scheduled = new AtomicLong();
        AtomicInteger refused = new AtomicInteger();
        List<Runnable> producers = new ArrayList<>();
        for (int p = 0; p < PRODUCERS; p++) {
            List<Timeout> mine = new ArrayList<>();
            returned.add(mine);
            SplittableRandom random = new SplittableRandom(3000 + p);
            producers.add(() -> {
                while (true) {
                    Runnable task = new Runnable() {
                        @Override
                        public void run() {
                            assertThat(ran.add(this)).as("a second run").isTrue();
                        }
                    };
                    try {
                        mine.add(timer.schedule(task, random.nextLong(1_000_000), NANOSECONDS));
                        scheduled.incrementAndGet();
                    } catch (IllegalStateException closed) {
                        refused.incrementAndGet();
                        return;
                    }
                }
            });
        }
        List<Timeout> left = new ArrayList<>();
        Thread closer = new Thread(() -> {
            while (scheduled.get() < 200_000) {
                Thread.onSpinWait();
            }
            left.addAll(timer.stop());
        });
        closer.start();
        runAll(producers);
        closer.join();

        Set<Timeout> leftSet = Collections.newSetFromMap(new ConcurrentHashMap<>());
        leftSet.addAll(left);
        long neverRan = 0;
        for (List<Timeout> mine : returned) {
            for (Timeout timeout : mine) {
                boolean didRun = ran.contains(timeout.task());
                assertThat(didRun ^ timeout.isCancelled())
                        .as("ran or cancelled, not both: %s", timeout)
                        .isTrue();
                if (leftSet.contains(timeout)) {
                    assertThat(didRun).isFalse();
                }
                if (!didRun) {
                    neverRan++;
                }
            }
        }
        assertThat(refused).hasValue(PRODUCERS);
        assertThat(neverRan).isGreaterThanOrEqualTo(left.size());
        assertThat(timer.stats().pending()).isZero();
        assertThat(handled).isEmpty();
    }
}
