package dev.hourglass.patterns;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hourglass.time.ManualNanoClock;
import dev.hourglass.timer.Timer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Several threads put, get, refresh and remove, half the puts and reads through the ConcurrentMap
 * view, while another moves the clock and the timer purges.
 * Every value that enters the map must leave it exactly once: returned by a put that replaced it or
 * a remove, or heard by the listener as expired. Each key has one writing thread, which knows when
 * its value expires to within the clock's movement during the put, so its reads are checked: never
 * an expired value, never a missing live one. Other threads read every key, and must never return
 * a value that had already left the map when their read began.
 */
final class ExpiringMapStress {

    private static final int THREADS = 4;
    private static final int KEYS_PER_THREAD = 16;
    private static final int OPERATIONS = 40_000;
    private static final long US = 1_000;

    private final ManualNanoClock clock;
    private final Timer timer;
    private final ExpiringMap<Integer, Integer> map;

    /** Half the puts and reads go through the ConcurrentMap view, which writes with this TTL. */
    private final ConcurrentMap<Integer, Integer> view;

    private static final long VIEW_TTL = 20 * US;

    /** Ticks at every event; a value's "left" tick orders its departure against reads. */
    private final AtomicLong sequence = new AtomicLong();

    private final AtomicInteger nextValue = new AtomicInteger();
    private final Map<Integer, Long> entered = new ConcurrentHashMap<>();
    private final Map<Integer, Long> left = new ConcurrentHashMap<>();
    private final Map<Integer, String> duplicates = new ConcurrentHashMap<>();
    private final List<String> failures = new ArrayList<>();

    ExpiringMapStress(ManualNanoClock clock, Timer timer) {
        this.clock = clock;
        this.timer = timer;
        this.map = ExpiringMap.<Integer, Integer>builder(timer, clock)
                .expiryListener((key, value) -> left(value, "expired"))
                .maxExpiriesPerPass(8)
                .defaultTtl(Duration.ofNanos(VIEW_TTL))
                .build();
        this.view = map.asMap();
    }

    void run() throws Exception {
        AtomicBoolean done = new AtomicBoolean();
        CountDownLatch finished = new CountDownLatch(THREADS);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int id = t;
            threads.add(new Thread(() -> {
                try {
                    work(id);
                } catch (Throwable e) {
                    fail("worker " + id + " threw " + e);
                } finally {
                    finished.countDown();
                }
            }));
        }
        Thread mover = new Thread(() -> {
            SplittableRandom random = new SplittableRandom(7);
            while (!done.get()) {
                clock.advance(random.nextLong(3 * US));
                Thread.onSpinWait();
            }
        });
        threads.forEach(Thread::start);
        mover.start();
        assertThat(finished.await(30, SECONDS)).as("workers finished").isTrue();
        done.set(true);
        mover.join();

        // Everything still live expires; the timer alone must report it all.
        clock.advance(Duration.ofSeconds(1));
        long deadline = System.nanoTime() + SECONDS.toNanos(10);
        while (left.size() < entered.size() && System.nanoTime() < deadline) {
            ExpiringMapTest.settle(timer);
        }
        synchronized (failures) {
            assertThat(failures).isEmpty();
        }
        assertThat(duplicates).as("values that left twice").isEmpty();
        Set<Integer> stayed = new TreeSet<>(entered.keySet());
        stayed.removeAll(left.keySet());
        assertThat(stayed)
                .as("values that entered and never left (%d entered; the map holds %d)", entered.size(), map.size())
                .isEmpty();
        assertThat(left.keySet()).as("every value that left had entered").isEqualTo(entered.keySet());
        assertThat(map.size()).isZero();
    }

    private void work(int id) {
        SplittableRandom random = new SplittableRandom(id);
        // The writer's view of its own keys: value, and the earliest and latest possible expiry.
        Map<Integer, long[]> mine = new ConcurrentHashMap<>();
        for (int i = 0; i < OPERATIONS; i++) {
            int key = id * KEYS_PER_THREAD + random.nextInt(KEYS_PER_THREAD);
            int choice = random.nextInt(10);
            if (choice < 3) {
                boolean viaView = random.nextBoolean();
                long ttl = viaView ? VIEW_TTL : random.nextLong(1, 40 * US);
                int value = nextValue.getAndIncrement();
                entered.put(value, sequence.incrementAndGet());
                long before = clock.nanoTime();
                Integer previous = viaView ? view.put(key, value) : map.put(key, value, Duration.ofNanos(ttl));
                long after = clock.nanoTime();
                if (previous != null) {
                    left(previous, "replaced");
                }
                mine.put(key, new long[] {value, before + ttl, after + ttl});
            } else if (choice < 5) {
                long ttl = random.nextLong(1, 40 * US);
                long before = clock.nanoTime();
                boolean refreshed = map.refresh(key, Duration.ofNanos(ttl));
                long after = clock.nanoTime();
                long[] known = mine.get(key);
                if (refreshed && known != null) {
                    mine.put(key, new long[] {known[0], before + ttl, after + ttl});
                }
            } else if (choice < 6) {
                Integer removed = map.remove(key);
                if (removed != null) {
                    left(removed, "removed");
                }
                mine.remove(key);
            } else if (choice < 8) {
                long before = clock.nanoTime();
                Integer value = random.nextBoolean() ? map.get(key) : view.get(key);
                long after = clock.nanoTime();
                long[] known = mine.get(key);
                if (known == null) {
                    check(value == null, "key " + key + " was removed by its writer but read " + value);
                } else if (before - known[2] >= 0) {
                    check(value == null, "key " + key + " read " + value + " after it surely expired");
                } else if (after - known[1] < 0) {
                    check(
                            value != null && value == known[0],
                            "key " + key + " read " + value + ", not live " + known[0]);
                }
            } else {
                int other = random.nextInt(THREADS * KEYS_PER_THREAD);
                long began = sequence.incrementAndGet();
                Integer value = random.nextBoolean() ? map.get(other) : view.get(other);
                if (value != null) {
                    Long gone = left.get(value);
                    check(gone == null || gone > began, "key " + other + " read " + value + " after it left");
                }
            }
        }
    }

    private void left(int value, String how) {
        if (left.putIfAbsent(value, sequence.incrementAndGet()) != null) {
            duplicates.put(value, how);
        }
    }

    private void check(boolean ok, String failure) {
        if (!ok) {
            synchronized (failures) {
                failures.add(failure);
            }
        }
    }

    private void fail(String failure) {
        check(false, failure);
    }
}
