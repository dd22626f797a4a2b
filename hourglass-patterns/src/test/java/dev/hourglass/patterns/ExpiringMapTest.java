package dev.hourglass.patterns;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import dev.hourglass.queue.TimerStructure;
import dev.hourglass.time.ManualNanoClock;
import dev.hourglass.timer.Timer;
import dev.hourglass.timer.Timers;
import java.lang.management.ManagementFactory;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link ExpiringMap} under a {@link ManualNanoClock} with real timer drivers. Most tests hold the
 * timer's tasks back: the driver hands each due sweep to an executor that only queues it, and the
 * test runs it when it chooses, so "before the timer fired" and "one pass at a time" are exact.
 */
@org.junit.jupiter.api.Timeout(60)
class ExpiringMapTest {

    static final long START = 5_000_000_000L;
    static final long MS = 1_000_000;

    final ManualNanoClock clock = new ManualNanoClock(START);

    /** Tasks the held timer's driver handed over, waiting for the test to run them. */
    final BlockingQueue<Runnable> held = new LinkedBlockingQueue<>();

    /** Every expiry the listener heard, as "key=value", in order. */
    final List<String> expiries = new CopyOnWriteArrayList<>();

    final Semaphore expirySignal = new Semaphore(0);
    private final List<Timer> timers = new ArrayList<>();

    @AfterEach
    void closeTimers() {
        timers.forEach(Timer::close);
    }

    /** A timer whose due tasks wait in {@link #held} until the test runs them. */
    Timer heldTimer() {
        return track(Timers.builder()
                .structure(TimerStructure.BINARY_HEAP)
                .clock(clock)
                .executor(held::add)
                .startTimerThread());
    }

    /** A timer that runs its tasks on its own thread. */
    Timer liveTimer(TimerStructure structure) {
        return track(Timers.builder()
                .structure(structure)
                .tick(Duration.ofMillis(1))
                .clock(clock)
                .startTimerThread());
    }

    private Timer track(Timer timer) {
        timers.add(timer);
        return timer;
    }

    /** A map with a 1 ms tick: the tests' TTLs are whole milliseconds, so expiry is exact. */
    ExpiringMap<String, Integer> map(Timer timer, int maxPerPass) {
        return ExpiringMap.<String, Integer>builder(timer, clock)
                .tick(ms(1))
                .expiryListener((key, value) -> {
                    expiries.add(key + "=" + value);
                    expirySignal.release();
                })
                .maxExpiriesPerPass(maxPerPass)
                .build();
    }

    ExpiringMap<String, Integer> map(Timer timer) {
        return map(timer, ExpiringMapBuilder.DEFAULT_MAX_EXPIRIES_PER_PASS);
    }

    static Duration ms(long millis) {
        return Duration.ofMillis(millis);
    }

    /** Runs held tasks until the driver has handed over everything due and nothing new came of it. */
    void runHeldUntilQuiet(Timer timer) throws InterruptedException {
        boolean ranAny;
        do {
            ranAny = false;
            AtomicBoolean probeRan = new AtomicBoolean();
            timer.schedule(() -> probeRan.set(true), Duration.ZERO);
            while (true) {
                Runnable task = held.poll(10, SECONDS);
                assertThat(task).as("the probe reaches the executor").isNotNull();
                task.run();
                if (probeRan.get()) {
                    break;
                }
                ranAny = true;
            }
        } while (ranAny);
    }

    /** Returns once the driver has run everything due on its own thread. */
    static void settle(Timer timer) throws InterruptedException {
        CountDownLatch probe = new CountDownLatch(1);
        timer.schedule(probe::countDown, Duration.ZERO);
        assertThat(probe.await(10, SECONDS)).as("the settling probe ran").isTrue();
    }

    void awaitExpiries(int count) throws InterruptedException {
        assertThat(expirySignal.tryAcquire(count, 10, SECONDS))
                .as("%d expiries heard, got %s", count, expiries.size())
                .isTrue();
        expirySignal.release(count);
    }

    // ---- reads and the expiry instant ----

    @Test
    void anEntryIsLiveOneNanosecondBeforeItsExpiryAndGoneAtIt() throws InterruptedException {
        Timer timer = heldTimer();
        ExpiringMap<String, Integer> map = map(timer);
        assertThat(map.put("a", 1, ms(10))).isNull();

        clock.advance(10 * MS - 1);
        assertThat(map.get("a")).isEqualTo(1);
        assertThat(map.containsKey("a")).isTrue();
        assertThat(map.ttl("a")).contains(Duration.ofNanos(1));
        assertThat(map.size()).isEqualTo(1);
        assertThat(expiries).isEmpty();

        clock.advance(1);
        assertThat(map.get("a")).isNull();
        assertThat(map.containsKey("a")).isFalse();
        assertThat(map.ttl("a")).isEmpty();
        assertThat(expiries).containsExactly("a=1");

        runHeldUntilQuiet(timer);
        assertThat(expiries).as("the timer's pass finds it gone").containsExactly("a=1");
    }

    @Test
    void everyReadExpiresPassivelyBeforeTheTimerFires() throws InterruptedException {
        Timer timer = heldTimer();
        ExpiringMap<String, Integer> map = map(timer);
        map.put("get", 1, ms(5));
        map.put("contains", 2, ms(5));
        map.put("ttl", 3, ms(5));
        map.put("remove", 4, ms(5));
        map.put("refresh", 5, ms(5));
        map.put("put", 6, ms(5));
        map.put("later", 7, ms(50));
        clock.advance(5 * MS);
        // The sweep is due, but it waits in the held executor: only reads can notice the expiry.

        assertThat(map.get("get")).isNull();
        assertThat(map.containsKey("contains")).isFalse();
        assertThat(map.ttl("ttl")).isEmpty();
        assertThat(map.remove("remove"))
                .as("an expired value is reported, not returned")
                .isNull();
        assertThat(map.refresh("refresh", ms(100))).isFalse();
        assertThat(map.put("put", 60, ms(10))).as("no live previous value").isNull();
        assertThat(expiries).containsExactly("get=1", "contains=2", "ttl=3", "remove=4", "refresh=5", "put=6");

        runHeldUntilQuiet(timer);
        assertThat(expiries).as("each expiry is heard once").hasSize(6);
        assertThat(map.get("put")).isEqualTo(60);
        assertThat(map.get("later")).isEqualTo(7);
        assertThat(map.size()).isEqualTo(2);
    }

    @Test
    void expirationsCountWhatTheListenerHearsAndTheEstimatedSizeWhatIsHeld() throws InterruptedException {
        Timer timer = heldTimer();
        ExpiringMap<String, Integer> map = map(timer);
        map.put("read", 1, ms(2));
        map.put("swept", 2, ms(2));
        map.put("removed", 3, ms(50));
        map.put("kept", 4, ms(50));
        map.put("stillborn", 5, ms(0));
        assertThat(expiries).containsExactly("stillborn=5");
        assertThat(map.expirations()).isOne();
        assertThat(map.estimatedSize()).isEqualTo(4);

        clock.advance(2 * MS);
        assertThat(map.estimatedSize())
                .as("expired, held until a read or a pass")
                .isEqualTo(4);
        assertThat(map.get("read")).isNull();
        assertThat(map.expirations()).isEqualTo(2);
        assertThat(map.estimatedSize()).isEqualTo(3);
        runHeldUntilQuiet(timer);
        assertThat(expiries).containsExactly("stillborn=5", "read=1", "swept=2");
        assertThat(map.expirations()).isEqualTo(3);
        assertThat(map.estimatedSize()).isEqualTo(2);

        assertThat(map.remove("removed")).isEqualTo(3);
        assertThat(map.expirations()).as("a removal is no expiry").isEqualTo(3);
        assertThat(map.estimatedSize()).isOne();
        map.clear();
        assertThat(map.estimatedSize()).isZero();
        assertThat(map.expirations()).isEqualTo(3);
    }

    @Test
    void theTimerPurgesEntriesNobodyReads() throws InterruptedException {
        Timer timer = liveTimer(TimerStructure.HIERARCHICAL_WHEEL);
        ExpiringMap<String, Integer> map = map(timer);
        map.put("a", 1, ms(3));
        map.put("b", 2, ms(7));
        clock.advance(3 * MS);
        awaitExpiries(1);
        assertThat(expiries).containsExactly("a=1");

        clock.advance(4 * MS);
        awaitExpiries(2);
        assertThat(expiries).containsExactly("a=1", "b=2");
        settle(timer);
        assertThat(map.size()).isZero();
        assertThat(timer.stats().pending()).as("nothing left armed").isZero();
    }

    @Test
    void aPassIsCountedOnceItsListenerHasHeardItAndAReadsExpiryBeforeItsNotice() throws InterruptedException {
        Timer timer = heldTimer();
        List<Long> seen = new ArrayList<>();
        AtomicReference<ExpiringMap<String, Integer>> self = new AtomicReference<>();
        ExpiringMap<String, Integer> map = ExpiringMap.<String, Integer>builder(timer, clock)
                .tick(ms(1))
                .expiryListener((key, value) -> seen.add(self.get().expirations()))
                .build();
        self.set(map);
        map.put("a", 1, ms(1));
        map.put("b", 2, ms(1));
        map.put("c", 3, ms(1));
        map.put("read", 4, ms(5));
        clock.advance(MS);
        runHeldUntilQuiet(timer);
        assertThat(seen).as("the count each notice of one pass saw").containsExactly(0L, 0L, 0L);
        assertThat(map.expirations()).isEqualTo(3);

        clock.advance(4 * MS);
        assertThat(map.get("read")).isNull();
        assertThat(seen).as("a read counts its expiry before the notice").containsExactly(0L, 0L, 0L, 4L);
    }

    @Test
    void theListenerHearsEachExpiryOnceWhenReadersRaceTheTimer() throws Exception {
        Timer timer = liveTimer(TimerStructure.BINARY_HEAP);
        ExpiringMap<String, Integer> map = map(timer, 16);
        int keys = 2_000;
        for (int round = 0; round < 10; round++) {
            expiries.clear();
            expirySignal.drainPermits();
            for (int i = 0; i < keys; i++) {
                map.put("k" + i, round, ms(1));
            }
            CountDownLatch go = new CountDownLatch(1);
            List<Throwable> failures = new CopyOnWriteArrayList<>();
            List<Thread> readers = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                int offset = r * keys / 2;
                Thread reader = new Thread(() -> {
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    for (int i = 0; i < keys; i++) {
                        assertThat(map.get("k" + ((i + offset) % keys))).isNull();
                    }
                });
                reader.setUncaughtExceptionHandler((thread, error) -> failures.add(error));
                reader.start();
                readers.add(reader);
            }
            clock.advance(MS);
            go.countDown();
            for (Thread reader : readers) {
                reader.join();
            }
            assertThat(failures).as("readers' failures").isEmpty();
            awaitExpiries(keys);
            settle(timer);
            assertThat(expiries).as("round %d", round).hasSize(keys).doesNotHaveDuplicates();
            assertThat(map.size()).isZero();
        }
    }

    // ---- refresh ----

    @Test
    void refreshExtendsALiveEntryFromNow() throws InterruptedException {
        Timer timer = heldTimer();
        ExpiringMap<String, Integer> map = map(timer);
        map.put("a", 1, ms(10));
        clock.advance(6 * MS);
        assertThat(map.refresh("a", ms(10))).isTrue();
        assertThat(map.ttl("a")).contains(ms(10));

        clock.advance(4 * MS);
        runHeldUntilQuiet(timer);
        assertThat(map.get("a")).as("the old expiry passed without effect").isEqualTo(1);
        assertThat(expiries).isEmpty();

        clock.advance(6 * MS - 1);
        assertThat(map.get("a")).isEqualTo(1);
        clock.advance(1);
        runHeldUntilQuiet(timer);
        assertThat(expiries).containsExactly("a=1");
        assertThat(map.get("a")).isNull();
    }

    @Test
    void refreshShortensAndTheTimerFollows() throws InterruptedException {
        Timer timer = liveTimer(TimerStructure.HIERARCHICAL_WHEEL);
        ExpiringMap<String, Integer> map = map(timer);
        map.put("a", 1, Duration.ofHours(1));
        assertThat(map.refresh("a", ms(2))).isTrue();
        clock.advance(2 * MS);
        awaitExpiries(1);
        assertThat(expiries).containsExactly("a=1");
    }

    @Test
    void refreshOfAMissingOrExpiredKeyReturnsFalse() {
        ExpiringMap<String, Integer> map = map(heldTimer());
        assertThat(map.refresh("missing", ms(5))).isFalse();
        map.put("a", 1, ms(5));
        clock.advance(5 * MS);
        assertThat(map.refresh("a", ms(5))).isFalse();
        assertThat(map.get("a")).isNull();
        assertThat(expiries).containsExactly("a=1");
        map.put("b", 2, ms(5));
        assertThat(map.remove("b")).isEqualTo(2);
        assertThat(map.refresh("b", ms(5))).as("removed").isFalse();
        assertThat(expiries).hasSize(1);
    }

    @Test
    void aZeroTtlExpiresAtOnce() {
        ExpiringMap<String, Integer> map = map(heldTimer());
        map.put("a", 1, ms(5));
        assertThat(map.put("a", 2, Duration.ZERO))
                .as("the live value it replaced")
                .isEqualTo(1);
        assertThat(expiries).containsExactly("a=2");
        assertThat(map.get("a")).isNull();
        assertThat(map.putIfAbsent("b", 3, Duration.ZERO)).isNull();
        assertThat(map.containsKey("b")).isFalse();
        map.put("c", 4, ms(5));
        assertThat(map.refresh("c", Duration.ZERO)).isTrue();
        assertThat(expiries).containsExactly("a=2", "b=3", "c=4");
        assertThat(map.size()).isZero();
    }

    // ---- writes ----

    @Test
    void putReturnsThePreviousLiveValueAndPutIfAbsentKeepsIt() {
        ExpiringMap<String, Integer> map = map(heldTimer());
        assertThat(map.put("a", 1, ms(5))).isNull();
        assertThat(map.put("a", 2, ms(5))).isEqualTo(1);
        assertThat(map.putIfAbsent("a", 3, ms(50))).isEqualTo(2);
        assertThat(map.ttl("a")).contains(ms(5));
        clock.advance(5 * MS);
        assertThat(map.putIfAbsent("a", 4, ms(5)))
                .as("the expired one does not count")
                .isNull();
        assertThat(map.get("a")).isEqualTo(4);
        assertThat(expiries).containsExactly("a=2");
        assertThat(map.remove("a")).isEqualTo(4);
        assertThat(map.remove("a")).isNull();
        assertThat(expiries).hasSize(1);
    }

    @Test
    void sizeCountsLiveEntriesExactly() {
        ExpiringMap<String, Integer> map = map(heldTimer());
        map.put("a", 1, ms(1));
        map.put("b", 2, ms(2));
        map.put("c", 3, ms(3));
        assertThat(map.size()).isEqualTo(3);
        clock.advance(2 * MS);
        assertThat(map.size()).isEqualTo(1);
        assertThat(expiries).containsExactlyInAnyOrder("a=1", "b=2");
    }

    @Test
    void clearRemovesWithoutReportingAndDisarmsTheTimer() throws InterruptedException {
        Timer timer = heldTimer();
        ExpiringMap<String, Integer> map = map(timer);
        map.put("a", 1, ms(1));
        map.put("b", 2, ms(2));
        map.clear();
        assertThat(map.size()).isZero();
        PendingCount.await(timer, 0);
        clock.advance(5 * MS);
        runHeldUntilQuiet(timer);
        assertThat(expiries).isEmpty();
        map.put("c", 3, ms(1));
        clock.advance(MS);
        runHeldUntilQuiet(timer);
        assertThat(expiries).as("it works after a clear").containsExactly("c=3");
    }

    // ---- cost ----

    @Test
    void aPutOfALiveKeyAllocatesNothingAndTheTimerHoldsOneTimeoutPerMap() {
        Timer timer = heldTimer();
        ExpiringMap<String, Integer> map = map(timer);
        Duration ttl = ms(10);
        Integer value = 7;
        String[] keys = new String[1_000];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = "k" + i;
            map.put(keys[i], value, ttl);
        }
        assertThat(timer.stats().pending())
                .as("one sweeping timeout for a thousand keys")
                .isOne();
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int round = 0; round < 100; round++) {
            for (String key : keys) {
                map.put(key, value, ttl);
            }
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertThat(allocated).as("bytes allocated by 100,000 puts of live keys").isLessThan(4_096);
        assertThat(timer.stats().pending()).isOne();
    }

    // ---- the ConcurrentMap view ----

    @Test
    void theMapViewHidesExpiredEntriesBeforeTheTimerFires() throws InterruptedException {
        Timer timer = heldTimer();
        ExpiringMap<String, Integer> map = map(timer);
        ConcurrentMap<String, Integer> view = map.asMap();
        map.put("a", 1, ms(5));
        map.put("b", 2, ms(50));
        view.put("c", 3);
        clock.advance(5 * MS);
        // The sweep is due but held: only the reads' own check hides "a".

        // Iterators only: size() and all that copy through toArray() purge, and report.
        assertThat(iterate(view.entrySet())).containsExactlyInAnyOrder(Map.entry("b", 2), Map.entry("c", 3));
        assertThat(iterate(view.keySet())).containsExactlyInAnyOrder("b", "c");
        assertThat(iterate(view.values())).containsExactlyInAnyOrder(2, 3);
        assertThat(view.containsValue(1)).isFalse();
        assertThat(view.hashCode()).isEqualTo(Map.of("b", 2, "c", 3).hashCode());
        assertThat(expiries).as("iterating reports nothing").isEmpty();
        assertThat(view.equals(Map.of("b", 2, "c", 3))).isTrue();
        assertThat(view).containsOnly(entry("b", 2), entry("c", 3));
        assertThat(view.entrySet().contains(Map.entry("a", 1))).isFalse();
        assertThat(view.get("a")).isNull();
        assertThat(view.containsKey("a")).isFalse();
        assertThat(expiries).containsExactly("a=1");
        assertThat(view.size()).isEqualTo(2);

        runHeldUntilQuiet(timer);
        assertThat(expiries).as("heard once").containsExactly("a=1");
    }

    private static <T> List<T> iterate(Iterable<T> items) {
        List<T> seen = new ArrayList<>();
        for (T item : items) {
            seen.add(item);
        }
        return seen;
    }

    @Test
    void theViewWritesWithTheDefaultTtlAndReplaceKeepsTheExpiry() {
        ExpiringMap<String, Integer> map = ExpiringMap.<String, Integer>builder(heldTimer(), clock)
                .defaultTtl(ms(10))
                .expiryListener((key, value) -> expiries.add(key + "=" + value))
                .build();
        ConcurrentMap<String, Integer> view = map.asMap();
        assertThat(view.put("a", 1)).isNull();
        assertThat(map.ttl("a")).contains(ms(10));
        clock.advance(4 * MS);
        assertThat(view.replace("a", 2)).isEqualTo(1);
        assertThat(view.replace("a", 2, 3)).isTrue();
        assertThat(view.replace("a", 2, 4)).isFalse();
        assertThat(view.entrySet().iterator().next().setValue(4)).isEqualTo(3);
        assertThat(view.merge("a", 10, Integer::sum)).isEqualTo(14);
        assertThat(map.ttl("a")).as("replaced values keep the expiry").contains(ms(6));
        assertThat(view.computeIfAbsent("b", key -> 5)).isEqualTo(5);
        assertThat(map.ttl("b")).contains(ms(10));
        assertThat(view.remove("b", 6)).isFalse();
        assertThat(view.remove("b", 5)).isTrue();

        clock.advance(6 * MS);
        assertThat(view.replace("a", 1)).as("an expired entry is not replaced").isNull();
        assertThat(expiries).containsExactly("a=14");
        view.put("c", 1);
        clock.advance(10 * MS);
        assertThat(view.putIfAbsent("c", 2))
                .as("an expired entry does not count")
                .isNull();
        assertThat(view.get("c")).isEqualTo(2);
        assertThat(expiries).containsExactly("a=14", "c=1");
    }

    @Test
    void theViewRefusesNullsAndAClosedMap() {
        ExpiringMap<String, Integer> map = map(heldTimer());
        ConcurrentMap<String, Integer> view = map.asMap();
        assertThatThrownBy(() -> view.put(null, 1)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> view.put("a", null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> view.get(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> view.containsValue(null)).isInstanceOf(NullPointerException.class);
        assertThat(map.asMap()).isSameAs(view);
        map.close();
        for (Runnable call : List.<Runnable>of(
                () -> view.get("a"),
                () -> view.put("a", 1),
                view::size,
                () -> view.entrySet().iterator(),
                () -> view.replace("a", 1),
                () -> view.remove("a", 1))) {
            assertThatThrownBy(call::run)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("expiring map is closed");
        }
    }

    // ---- the tick ----

    @Test
    void theTimerHearsOfAnExpiryWithinOneTickOfIt() throws InterruptedException {
        Timer timer = heldTimer();
        ExpiringMap<String, Integer> map = ExpiringMap.<String, Integer>builder(timer, clock)
                .tick(ms(10))
                .expiryListener((key, value) -> expiries.add(key + "=" + value))
                .build();
        map.put("a", 1, ms(15));
        map.put("b", 2, ms(20));
        map.put("c", 3, ms(21));
        clock.advance(15 * MS);
        runHeldUntilQuiet(timer);
        assertThat(expiries).as("a is due, but its tick ends at 20 ms").isEmpty();
        clock.advance(5 * MS - 1);
        runHeldUntilQuiet(timer);
        assertThat(expiries).isEmpty();
        clock.advance(1);
        runHeldUntilQuiet(timer);
        assertThat(expiries).as("a within a tick, b on the boundary").containsExactlyInAnyOrder("a=1", "b=2");
        clock.advance(10 * MS);
        runHeldUntilQuiet(timer);
        assertThat(expiries).hasSize(3);
    }

    // ---- bounded passes ----

    @Test
    void aPassPurgesAtMostItsLimitAndTheRestFollowAtOnce() throws InterruptedException {
        Timer timer = heldTimer();
        ExpiringMap<String, Integer> map = map(timer, 100);
        int count = 10_000;
        for (int i = 0; i < count; i++) {
            map.put("k" + i, i, ms(1 + i % 3));
        }
        clock.advance(3 * MS);
        int passes = 0;
        while (expiries.size() < count) {
            Runnable pass = held.poll(10, SECONDS);
            assertThat(pass)
                    .as("pass %d after %d expiries", passes, expiries.size())
                    .isNotNull();
            int before = expiries.size();
            pass.run();
            passes++;
            assertThat(expiries.size() - before).as("pass %d", passes).isEqualTo(100);
        }
        assertThat(passes).isEqualTo(100);
        assertThat(expiries).doesNotHaveDuplicates();
        runHeldUntilQuiet(timer);
        assertThat(expiries).hasSize(count);
        assertThat(map.size()).isZero();
    }

    /**
     * 50,000 entries put with TTLs of 100 to 127 ms wait in the wheel's second level and move down
     * together at the first pass, at 100 ms, which takes 500 passes of 100; an entry due meanwhile is
     * heard within a pass per stripe, not after the cascade: due entries go first, every pass
     * advances every stripe's wheel, and a pass that runs out of budget hands the next pass to the
     * next stripe.
     */
    @Test
    void aBigCascadeDoesNotHoldBackAnEntryDueMeanwhile() throws InterruptedException {
        Timer timer = heldTimer();
        ExpiringMap<String, Integer> map = map(timer, 100);
        int count = 50_000;
        for (int i = 0; i < count; i++) {
            map.put("c" + i, i, ms(100 + i % 28));
        }
        clock.advance(100 * MS);
        Runnable first = held.poll(10, SECONDS);
        assertThat(first).as("the pass that begins the cascade").isNotNull();
        first.run();
        assertThat(expiries).as("one pass's worth at most").hasSizeLessThanOrEqualTo(100);

        map.put("late", -1, ms(1));
        clock.advance(MS);
        int passes = 0;
        while (!expiries.contains("late=-1")) {
            Runnable pass = held.poll(10, SECONDS);
            assertThat(pass).as("pass %d", passes).isNotNull();
            pass.run();
            passes++;
        }
        assertThat(passes)
                .as("passes until the entry due meanwhile was heard, %d stripes", ExpiringMap.stripes())
                .isLessThanOrEqualTo(ExpiringMap.stripes());

        clock.advance(127 * MS);
        runHeldUntilQuiet(timer);
        assertThat(expiries).hasSize(count + 1).doesNotHaveDuplicates();
    }

    @Test
    void boundedPassesOnALiveTimerReportEveryEntryOnce() throws InterruptedException {
        Timer timer = liveTimer(TimerStructure.HIERARCHICAL_WHEEL);
        ExpiringMap<String, Integer> map = map(timer, 100);
        int count = 10_000;
        for (int i = 0; i < count; i++) {
            map.put("k" + i, i, ms(2));
        }
        long firedBefore = timer.stats().fired();
        clock.advance(2 * MS);
        awaitExpiries(count);
        settle(timer);
        assertThat(expiries).hasSize(count).doesNotHaveDuplicates();
        assertThat(timer.stats().fired() - firedBefore).as("passes run").isGreaterThanOrEqualTo(100);
    }

    // ---- time ----

    @Test
    void expiryWorksAcrossTheWrapOfTheClock() throws InterruptedException {
        clock.advance(Long.MAX_VALUE - START - 2 * MS);
        Timer timer = liveTimer(TimerStructure.HIERARCHICAL_WHEEL);
        ExpiringMap<String, Integer> map = map(timer);
        map.put("a", 1, ms(5));
        map.put("forever", 2, Duration.ofSeconds(Long.MAX_VALUE));
        clock.advance(5 * MS - 1);
        assertThat(clock.nanoTime()).as("wrapped").isNegative();
        assertThat(map.get("a")).isEqualTo(1);
        clock.advance(1);
        awaitExpiries(1);
        assertThat(expiries).containsExactly("a=1");
        assertThat(map.get("forever")).isEqualTo(2);
        assertThat(map.ttl("forever")).get().isEqualTo(Duration.ofNanos(Timer.MAX_DELAY_NANOS - 5 * MS));
        clock.advance(Duration.ofDays(365 * 100));
        assertThat(map.get("forever")).as("a TTL cut to 146 years").isEqualTo(2);
    }

    // ---- bad input, close, retention ----

    @Test
    void badInputIsRefusedWithTheArgumentNamed() {
        Timer timer = heldTimer();
        ExpiringMap<String, Integer> map = map(timer);
        assertThatThrownBy(() -> map.put(null, 1, ms(1)))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("key");
        assertThatThrownBy(() -> map.put("a", null, ms(1)))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("value");
        assertThatThrownBy(() -> map.put("a", 1, null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("ttl");
        assertThatThrownBy(() -> map.refresh(null, ms(1))).hasMessage("key");
        assertThatThrownBy(() -> map.get(null)).hasMessage("key");
        assertThatThrownBy(() -> map.containsKey(null)).hasMessage("key");
        assertThatThrownBy(() -> map.ttl(null)).hasMessage("key");
        assertThatThrownBy(() -> map.remove(null)).hasMessage("key");
        assertThatThrownBy(() -> ExpiringMap.builder(null, clock)).hasMessage("timer");
        assertThatThrownBy(() -> ExpiringMap.builder(timer, null)).hasMessage("clock");
        assertThatThrownBy(() -> ExpiringMap.builder(timer, clock).expiryListener(null))
                .hasMessage("expiryListener");
        assertThatThrownBy(() -> ExpiringMap.builder(timer, clock).maxExpiriesPerPass(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxExpiriesPerPass must be at least 1: 0");
        assertThatThrownBy(() -> ExpiringMap.builder(timer, clock).tick(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("tick must be positive and at most Long.MAX_VALUE ns: PT0S");
        assertThatThrownBy(() -> ExpiringMap.builder(timer, clock).tick(null)).hasMessage("tick");
        assertThatThrownBy(() -> ExpiringMap.builder(timer, clock).defaultTtl(ms(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("defaultTtl must be positive: PT-0.001S");
        assertThatThrownBy(() -> ExpiringMap.builder(timer, clock).defaultTtl(null))
                .hasMessage("defaultTtl");
        assertThat(map.size()).as("nothing changed").isZero();
    }

    @Test
    void aClosedMapRefusesEveryCallAndLeavesTheTimerClean() throws InterruptedException {
        Timer timer = heldTimer();
        ExpiringMap<String, Integer> map = map(timer);
        map.put("a", 1, ms(1));
        map.close();
        map.close();
        PendingCount.await(timer, 0);
        for (Runnable call : List.<Runnable>of(
                () -> map.put("a", 1, ms(1)),
                () -> map.putIfAbsent("a", 1, ms(1)),
                () -> map.get("a"),
                () -> map.containsKey("a"),
                () -> map.ttl("a"),
                () -> map.refresh("a", ms(1)),
                () -> map.remove("a"),
                map::size,
                map::clear)) {
            assertThatThrownBy(call::run)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("expiring map is closed");
        }
        clock.advance(MS);
        runHeldUntilQuiet(timer);
        assertThat(expiries).isEmpty();
    }

    @Test
    void aClosedTimerIsReportedByPut() {
        Timer timer = heldTimer();
        ExpiringMap<String, Integer> map = map(timer);
        map.put("a", 1, ms(1));
        timer.close();
        assertThatThrownBy(() -> map.put("b", 2, ms(1))).isInstanceOf(IllegalStateException.class);
        assertThat(map.containsKey("b")).as("a failed put changes nothing").isFalse();
        assertThat(map.get("a")).as("passive expiry still holds").isEqualTo(1);
        clock.advance(MS);
        assertThat(map.get("a")).isNull();
        assertThat(expiries).containsExactly("a=1");
    }

    @Test
    void theListenerMayThrowAndTheRestOfAPassAreStillReported() throws InterruptedException {
        List<Throwable> handled = new CopyOnWriteArrayList<>();
        Timer timer = track(Timers.builder()
                .structure(TimerStructure.BINARY_HEAP)
                .clock(clock)
                .exceptionHandler((timeout, error) -> handled.add(error))
                .startTimerThread());
        List<String> heard = new CopyOnWriteArrayList<>();
        ExpiringMap<String, Integer> map = failingListenerMap(timer, heard);
        map.put("bad1", 1, ms(1));
        map.put("good", 2, ms(1));
        map.put("bad2", 3, ms(1));
        clock.advance(MS);
        settle(timer);
        assertThat(heard).containsExactlyInAnyOrder("bad1", "good", "bad2");
        assertThat(handled).hasSize(1);
        assertThat(handled.get(0)).hasMessageStartingWith("listener failed on bad");
        assertThat(handled.get(0).getSuppressed()).hasSize(1);
        assertThat(map.expirations()).as("heard, thrown or not").isEqualTo(3);
        assertThat(map.size()).isZero();
    }

    @Test
    void aReadPassesTheListenersExceptionOnOnceTheEntryIsGone() {
        List<String> heard = new CopyOnWriteArrayList<>();
        ExpiringMap<String, Integer> map = failingListenerMap(heldTimer(), heard);
        map.put("bad", 1, ms(1));
        clock.advance(MS);
        assertThatThrownBy(() -> map.get("bad")).hasMessage("listener failed on bad");
        assertThat(map.containsKey("bad")).isFalse();
        assertThat(heard).containsExactly("bad");
    }

    private ExpiringMap<String, Integer> failingListenerMap(Timer timer, List<String> heard) {
        return ExpiringMap.<String, Integer>builder(timer, clock)
                .tick(ms(1))
                .expiryListener((key, value) -> {
                    heard.add(key);
                    if (key.startsWith("bad")) {
                        throw new IllegalStateException("listener failed on " + key);
                    }
                })
                .build();
    }

    @Test
    void nothingIsRetainedAfterRemoveOrExpiry() throws InterruptedException {
        Timer timer = liveTimer(TimerStructure.BINARY_HEAP);
        ExpiringMap<String, Object> map = ExpiringMap.<String, Object>builder(timer, clock)
                .tick(ms(1))
                .expiryListener((key, value) -> expirySignal.release())
                .build();
        WeakReference<Object> removed = putWeakly(map, "removed", Duration.ofHours(1));
        WeakReference<Object> expired = putWeakly(map, "expired", ms(1));
        map.remove("removed");
        clock.advance(MS);
        awaitExpiries(1);
        settle(timer);
        for (int i = 0; i < 50 && (removed.get() != null || expired.get() != null); i++) {
            System.gc(); // weak references are cleared by the collection itself: no waiting
        }
        assertThat(removed.get()).as("a removed value").isNull();
        assertThat(expired.get()).as("an expired value").isNull();
    }

    private static WeakReference<Object> putWeakly(ExpiringMap<String, Object> map, String key, Duration ttl) {
        Object value = new byte[1024];
        map.put(key, value, ttl);
        return new WeakReference<>(value);
    }

    // ---- a seeded model and a concurrent stress test ----

    @Test
    void randomOperationsMatchAModel() throws InterruptedException {
        long seed = TestSeeds.seed(0xE4B1);
        for (int run = 0; run < 4; run++) {
            new ExpiringMapModelRun(seed + run, 1 + run * 3).run(10_000);
        }
    }

    @Test
    void concurrentUseReportsEveryExpiryOnceAndNeverReadsAnExpiredValue() throws Exception {
        new ExpiringMapStress(clock, liveTimer(TimerStructure.HIERARCHICAL_WHEEL)).run();
    }
}
