package dev.hourglass.patterns;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hourglass.queue.TimerStructure;
import dev.hourglass.time.ManualNanoClock;
import dev.hourglass.timer.Timer;
import dev.hourglass.timer.Timers;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * One seeded run of random operations on an {@link ExpiringMap} and on a plain model (a HashMap of
 * value and expiry time), checking every answer, and that the listener hears exactly the values the
 * model saw expire: each once, none that did not expire, and a key's expired value by the time an
 * operation on that key returns. The timer's passes are held back and run at random steps, so reads
 * meet expired entries both before and after the timer purged them. Half the operations go through
 * the {@link java.util.concurrent.ConcurrentMap} view, whose iteration must show exactly the live
 * entries; the map's tick is finer than, as fine as or coarser than the timer's, and some TTLs reach
 * the wheel's upper levels.
 *
 * <p>The seed is fixed so that CI is repeatable; {@code -Dhourglass.seed=N} replays a run and
 * {@code -Dhourglass.seed=random} explores. A failure names its seed and step.
 */
final class ExpiringMapModelRun {

    private static final long US = 1_000;
    private static final int KEYS = 8;

    private final long seed;
    private final SplittableRandom random;
    private final ManualNanoClock clock;
    private final BlockingQueue<Runnable> held = new LinkedBlockingQueue<>();
    private final Timer timer;
    private final ExpiringMap<String, Integer> map;
    private final ConcurrentMap<String, Integer> view;
    private final Duration defaultTtl;

    /** The model: each key's live value and expiry time. */
    private final Map<String, long[]> model = new HashMap<>();

    private final Set<Integer> modelExpired = new HashSet<>();

    /** Per key, the value the model saw expire most recently, which the listener must have heard. */
    private final Map<String, Integer> expiredOf = new HashMap<>();

    private final List<Integer> heard = new ArrayList<>();
    private final Set<Integer> heardOnce = new HashSet<>();
    private int checkedHeard;
    private final Deque<String> recent = new ArrayDeque<>();
    private int nextValue;
    private int step;

    ExpiringMapModelRun(long seed, int maxPerPass) {
        this.seed = seed;
        this.random = new SplittableRandom(seed);
        // Half the runs start just before the clock wraps past Long.MAX_VALUE.
        this.clock = new ManualNanoClock(random.nextBoolean() ? Long.MAX_VALUE - 20_000 * US : random.nextLong());
        this.timer = Timers.builder()
                .structure(random.nextBoolean() ? TimerStructure.BINARY_HEAP : TimerStructure.HIERARCHICAL_WHEEL)
                .tick(Duration.ofNanos(US))
                .clock(clock)
                .executor(held::add)
                .startTimerThread();
        this.defaultTtl = Duration.ofNanos(random.nextLong(1, 20 * US));
        // The map's tick: finer than, as fine as, or coarser than the timer's.
        long tick = new long[] {1, US, 3 * US}[random.nextInt(3)];
        this.map = ExpiringMap.<String, Integer>builder(timer, clock)
                .expiryListener((key, value) -> heard.add(value))
                .maxExpiriesPerPass(maxPerPass)
                .tick(Duration.ofNanos(tick))
                .defaultTtl(defaultTtl)
                .build();
        this.view = map.asMap();
    }

    void run(int operations) throws InterruptedException {
        try {
            for (step = 0; step < operations; step++) {
                operation();
            }
            // Left alone, the timer alone purges everything: the listener hears exactly what expired.
            clock.advance(Duration.ofSeconds(11));
            expireModel();
            runHeldUntilQuiet();
            checkHeard();
            assertThat(heardOnce).as("heard at the end").isEqualTo(modelExpired);
            assertThat(map.size()).isZero();
        } catch (AssertionError e) {
            throw new AssertionError(
                    "model divergence with seed " + seed + " (replay with -Dhourglass.seed=" + seed + ") at step "
                            + step + " after " + recent + ": " + e.getMessage(),
                    e);
        } finally {
            timer.close();
        }
    }

    private void operation() {
        expireModel();
        checkHeard();
        String key = "k" + random.nextInt(KEYS);
        long now = clock.nanoTime();
        long[] live = model.get(key);
        Integer liveValue = live == null ? null : (int) live[0];
        // Half the reads and writes go through the ConcurrentMap view.
        boolean viaView = random.nextBoolean();
        int choice = random.nextInt(100);
        if (choice < 22) {
            Duration ttl = viaView ? defaultTtl : ttl();
            int value = nextValue++;
            log((viaView ? "view." : "") + "put " + key + "=" + value + " " + ttl.toNanos());
            assertThat(viaView ? view.put(key, value) : map.put(key, value, ttl))
                    .as("put's previous value")
                    .isEqualTo(liveValue);
            store(key, value, now, ttl);
        } else if (choice < 30) {
            Duration ttl = viaView ? defaultTtl : ttl();
            int value = nextValue++;
            log((viaView ? "view." : "") + "putIfAbsent " + key + "=" + value + " " + ttl.toNanos());
            assertThat(viaView ? view.putIfAbsent(key, value) : map.putIfAbsent(key, value, ttl))
                    .isEqualTo(liveValue);
            if (liveValue == null) {
                store(key, value, now, ttl);
            }
        } else if (choice < 45) {
            log((viaView ? "view." : "") + "get " + key);
            assertThat(viaView ? view.get(key) : map.get(key)).isEqualTo(liveValue);
        } else if (choice < 50) {
            log((viaView ? "view." : "") + "containsKey " + key);
            assertThat(viaView ? view.containsKey(key) : map.containsKey(key)).isEqualTo(liveValue != null);
        } else if (choice < 53) {
            log("ttl " + key);
            assertThat(map.ttl(key)).isEqualTo(Optional.ofNullable(live).map(m -> Duration.ofNanos(m[1] - now)));
        } else if (choice < 60) {
            Duration ttl = ttl();
            log("refresh " + key + " " + ttl.toNanos());
            assertThat(map.refresh(key, ttl)).isEqualTo(liveValue != null);
            if (liveValue != null) {
                store(key, liveValue, now, ttl);
            }
        } else if (choice < 64) {
            int value = nextValue++;
            log("view.replace " + key + "=" + value);
            assertThat(view.replace(key, value)).isEqualTo(liveValue);
            if (live != null) {
                live[0] = value;
            }
        } else if (choice < 67) {
            int expected = random.nextBoolean() && liveValue != null ? liveValue : nextValue - 1;
            boolean removes = liveValue != null && liveValue == expected;
            log("view.remove " + key + "=" + expected);
            assertThat(view.remove(key, expected)).isEqualTo(removes);
            if (removes) {
                model.remove(key);
            }
        } else if (choice < 72) {
            log((viaView ? "view." : "") + "remove " + key);
            assertThat(viaView ? view.remove(key) : map.remove(key)).isEqualTo(liveValue);
            model.remove(key);
        } else if (choice < 75) {
            log("size");
            assertThat(viaView ? view.size() : map.size()).isEqualTo(model.size());
            checkHeard();
            assertThat(heardOnce.containsAll(modelExpired))
                    .as("size purges every expired entry")
                    .isTrue();
        } else if (choice < 78) {
            log("view.entrySet iteration");
            Map<String, Integer> seen = new HashMap<>();
            for (Map.Entry<String, Integer> entry : view.entrySet()) {
                assertThat(seen.put(entry.getKey(), entry.getValue()))
                        .as("seen twice")
                        .isNull();
            }
            Map<String, Integer> expected = new HashMap<>();
            model.forEach((k, m) -> expected.put(k, (int) m[0]));
            assertThat(seen).isEqualTo(expected);
        } else if (choice < 92) {
            advance();
        } else {
            log("run held passes");
            for (Runnable task = held.poll(); task != null; task = held.poll()) {
                task.run();
            }
        }
        checkHeard();
        Integer mustHear = expiredOf.get(key);
        if (choice < 75 && mustHear != null) {
            assertThat(heard)
                    .as("an operation on %s reports its expired value", key)
                    .contains(mustHear);
        }
    }

    private void advance() {
        long step;
        int kind = random.nextInt(4);
        long earliest = model.values().stream()
                .mapToLong(m -> m[1] - clock.nanoTime())
                .min()
                .orElse(1);
        if (kind == 0) {
            step = earliest;
        } else if (kind == 1) {
            step = Math.max(0, earliest - 1);
        } else {
            step = random.nextLong(25 * US);
        }
        log("advance " + step);
        clock.advance(step);
    }

    /** Mostly short; one in ten zero, one in twenty up to ten seconds, high up the wheel. */
    private Duration ttl() {
        int kind = random.nextInt(20);
        if (kind < 2) {
            return Duration.ZERO;
        }
        return Duration.ofNanos(random.nextLong(1, kind == 2 ? 10_000_000 * US : 20 * US));
    }

    private void store(String key, int value, long now, Duration ttl) {
        if (ttl.isZero()) {
            model.remove(key);
            expire(key, value);
        } else {
            model.put(key, new long[] {value, now + ttl.toNanos()});
        }
    }

    private void expireModel() {
        long now = clock.nanoTime();
        model.entrySet().removeIf(e -> {
            if (now - e.getValue()[1] >= 0) {
                expire(e.getKey(), (int) e.getValue()[0]);
                return true;
            }
            return false;
        });
    }

    private void expire(String key, int value) {
        modelExpired.add(value);
        expiredOf.put(key, value);
    }

    /** Checks what the listener heard since the last check: each value once, and only expired ones. */
    private void checkHeard() {
        for (; checkedHeard < heard.size(); checkedHeard++) {
            int value = heard.get(checkedHeard);
            assertThat(heardOnce.add(value)).as("%d heard twice", value).isTrue();
            assertThat(modelExpired.contains(value))
                    .as("%d heard but not expired", value)
                    .isTrue();
        }
    }

    private void runHeldUntilQuiet() throws InterruptedException {
        boolean ranAny;
        do {
            ranAny = false;
            java.util.concurrent.atomic.AtomicBoolean probeRan = new java.util.concurrent.atomic.AtomicBoolean();
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

    private void log(String operation) {
        recent.addLast(operation);
        if (recent.size() > 12) {
            recent.removeFirst();
        }
    }
}
