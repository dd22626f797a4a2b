package dev.hourglass.patterns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hourglass.queue.TimerStructure;
import dev.hourglass.time.ManualNanoClock;
import dev.hourglass.timer.Timer;
import dev.hourglass.timer.Timers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class CooldownsTest {

    private static final Duration S = Duration.ofSeconds(1);
    private static final long SECOND = S.toNanos();

    private ManualNanoClock clock = new ManualNanoClock(1_000);
    private Timer timer;
    private final ConcurrentLinkedQueue<String> heard = new ConcurrentLinkedQueue<>();

    @AfterEach
    void closeTimer() {
        if (timer != null) {
            timer.close();
        }
    }

    private Cooldowns<String> cooldowns() {
        timer = Timers.builder()
                .structure(TimerStructure.BINARY_HEAP)
                .clock(clock)
                .startTimerThread();
        return Cooldowns.<String>builder(timer, clock)
                .ability("Fireball", S.multipliedBy(3), 2)
                .ability("Dash", S)
                .ability("Volley", S.multipliedBy(2), 3)
                .listener((entity, ability) -> heard.add(entity + ":" + ability))
                .build();
    }

    /** Waits until the timer has run everything due now: it runs a zero-delay probe after those. */
    private void drain() throws InterruptedException {
        CountDownLatch probe = new CountDownLatch(1);
        timer.schedule(probe::countDown, Duration.ZERO);
        assertThat(probe.await(10, TimeUnit.SECONDS)).as("probe ran").isTrue();
    }

    private void advance(Duration by) throws InterruptedException {
        clock.advance(by);
        drain();
    }

    @Test
    void singleChargeIsReadyAgainExactlyAfterItsCooldown() throws InterruptedException {
        Cooldowns<String> cooldowns = cooldowns();
        CooldownResult first = cooldowns.tryUse("ann", "Dash");
        assertThat(first.used()).isTrue();
        assertThat(first.charges()).isZero();
        assertThat(first.remaining()).isEqualTo(S);

        CooldownResult refused = cooldowns.tryUse("ann", "Dash");
        assertThat(refused.used()).isFalse();
        assertThat(refused.remaining()).isEqualTo(S);

        advance(Duration.ofMillis(400));
        assertThat(cooldowns.remaining("ann", "Dash")).isEqualTo(Duration.ofMillis(600));
        assertThat(cooldowns.tryUse("ann", "Dash").remainingNanos()).isEqualTo(600_000_000L);

        advance(Duration.ofMillis(600).minusNanos(1));
        CooldownResult early = cooldowns.tryUse("ann", "Dash");
        assertThat(early.used()).isFalse();
        assertThat(early.remainingNanos()).isEqualTo(1);

        advance(Duration.ofNanos(1));
        assertThat(cooldowns.charges("ann", "Dash")).isEqualTo(1);
        assertThat(cooldowns.remaining("ann", "Dash")).isZero();
        assertThat(heard).containsExactly("ann:Dash");
        assertThat(cooldowns.tryUse("ann", "Dash").used())
                .as("use at exactly the ready instant")
                .isTrue();
        assertThat(cooldowns.tryUse("bob", "Dash").used()).as("another entity").isTrue();
    }

    @Test
    void useAtTheReadyInstantDoesNotWaitForTheTimer() {
        // Tasks go to an executor that never runs them: the timer is as late as it can be.
        List<Runnable> held = new ArrayList<>();
        timer = Timers.builder()
                .structure(TimerStructure.BINARY_HEAP)
                .clock(clock)
                .executor(task -> {
                    synchronized (held) {
                        held.add(task);
                    }
                })
                .startTimerThread();
        Cooldowns<String> cooldowns = Cooldowns.<String>builder(timer, clock)
                .ability("Fireball", S.multipliedBy(3), 2)
                .listener((entity, ability) -> heard.add(entity + ":" + ability))
                .build();
        cooldowns.tryUse("ann", "Fireball");
        cooldowns.tryUse("ann", "Fireball");
        clock.advance(S.multipliedBy(3));
        CooldownResult result = cooldowns.tryUse("ann", "Fireball");
        assertThat(result.used()).isTrue();
        assertThat(result.charges()).isZero();
        assertThat(result.remaining()).isEqualTo(S.multipliedBy(3));
        clock.advance(S.multipliedBy(3).minusNanos(1));
        assertThat(cooldowns.tryUse("ann", "Fireball").used()).isFalse();
        clock.advance(1);
        assertThat(cooldowns.charges("ann", "Fireball")).isEqualTo(1);
        assertThat(heard).isEmpty();
    }

    @Test
    void chargesRechargeOneAtATime() throws InterruptedException {
        Cooldowns<String> cooldowns = cooldowns();
        assertThat(cooldowns.tryUse("ann", "Fireball").charges()).isEqualTo(1);
        advance(S);
        CooldownResult second = cooldowns.tryUse("ann", "Fireball");
        assertThat(second.used()).isTrue();
        assertThat(second.charges()).isZero();
        assertThat(second.remaining()).as("the first charge keeps recharging").isEqualTo(S.multipliedBy(2));
        assertThat(cooldowns.tryUse("ann", "Fireball").used()).isFalse();

        advance(S.multipliedBy(2));
        assertThat(cooldowns.charges("ann", "Fireball")).isEqualTo(1);
        assertThat(cooldowns.remaining("ann", "Fireball"))
                .as("the second charge starts when the first is back")
                .isEqualTo(S.multipliedBy(3));
        assertThat(heard).containsExactly("ann:Fireball");

        advance(S.multipliedBy(3).minusNanos(1));
        assertThat(cooldowns.charges("ann", "Fireball")).isEqualTo(1);
        advance(Duration.ofNanos(1));
        assertThat(cooldowns.charges("ann", "Fireball")).isEqualTo(2);
        assertThat(cooldowns.remaining("ann", "Fireball")).isZero();
        assertThat(heard).containsExactly("ann:Fireball", "ann:Fireball");
    }

    @Test
    void listenerHearsEachRechargeOnceEvenWhenTheTimerCatchesUp() throws InterruptedException {
        Cooldowns<String> cooldowns = cooldowns();
        for (int i = 0; i < 3; i++) {
            assertThat(cooldowns.tryUse("ann", "Volley").used()).isTrue();
        }
        advance(S.multipliedBy(60));
        assertThat(heard).containsExactly("ann:Volley", "ann:Volley", "ann:Volley");
        advance(S.multipliedBy(60));
        assertThat(heard).hasSize(3);
        assertThat(cooldowns.charges("ann", "Volley")).isEqualTo(3);
    }

    @Test
    void rechargeSeenByAUseBeforeTheTimerIsStillAnnouncedOnce() throws InterruptedException {
        // Tasks are held by the executor until the test runs them: the use sees the recharge first.
        List<Runnable> held = new ArrayList<>();
        Semaphore arrived = new Semaphore(0);
        timer = Timers.builder()
                .structure(TimerStructure.BINARY_HEAP)
                .clock(clock)
                .executor(task -> {
                    synchronized (held) {
                        held.add(task);
                    }
                    arrived.release();
                })
                .startTimerThread();
        Cooldowns<String> cooldowns = Cooldowns.<String>builder(timer, clock)
                .ability("Dash", S)
                .listener((entity, ability) -> heard.add(entity + ":" + ability))
                .build();
        cooldowns.tryUse("ann", "Dash");
        clock.advance(S);
        assertThat(arrived.tryAcquire(10, TimeUnit.SECONDS))
                .as("the recharge's task")
                .isTrue();
        assertThat(cooldowns.tryUse("ann", "Dash").used()).isTrue();
        assertThat(arrived.tryAcquire(10, TimeUnit.SECONDS))
                .as("a task to announce it")
                .isTrue();
        List<Runnable> due;
        synchronized (held) {
            due = new ArrayList<>(held);
            held.clear();
        }
        assertThat(due).hasSize(2);
        due.forEach(Runnable::run);
        assertThat(heard).containsExactly("ann:Dash");
    }

    @Test
    void reductionShortensTheRunningChargeAndStopsAtZero() throws InterruptedException {
        Cooldowns<String> cooldowns = cooldowns();
        cooldowns.tryUse("ann", "Fireball");
        cooldowns.tryUse("ann", "Fireball");
        advance(S);
        cooldowns.reduce("ann", "Fireball", Duration.ofMillis(500));
        assertThat(cooldowns.remaining("ann", "Fireball")).isEqualTo(Duration.ofMillis(1500));
        assertThat(heard).isEmpty();

        cooldowns.reduce("ann", "Fireball", S.multipliedBy(10));
        drain();
        assertThat(cooldowns.charges("ann", "Fireball")).isEqualTo(1);
        assertThat(cooldowns.remaining("ann", "Fireball"))
                .as("the excess is dropped; the next charge takes a full cooldown from now")
                .isEqualTo(S.multipliedBy(3));
        assertThat(heard).containsExactly("ann:Fireball");

        cooldowns.reduce("ann", "Fireball", S.multipliedBy(3));
        drain();
        assertThat(cooldowns.charges("ann", "Fireball")).isEqualTo(2);
        assertThat(heard).hasSize(2);
        cooldowns.reduce("ann", "Fireball", S);
        cooldowns.reduce("nobody", "Fireball", S);
        assertThat(cooldowns.charges("ann", "Fireball")).isEqualTo(2);
        assertThat(cooldowns.activeEntities()).isZero();
        assertThat(timer.stats().pending()).isZero();
    }

    @Test
    void reductionMovesTheListenerEarlier() throws InterruptedException {
        Cooldowns<String> cooldowns = cooldowns();
        cooldowns.tryUse("ann", "Fireball");
        cooldowns.reduce("ann", "Fireball", S.multipliedBy(2));
        advance(S.minusNanos(1));
        assertThat(heard).isEmpty();
        advance(Duration.ofNanos(1));
        assertThat(heard).containsExactly("ann:Fireball");
        advance(S.multipliedBy(5));
        assertThat(heard).hasSize(1);
    }

    @Test
    void resetWhileRechargingMakesEveryChargeReadyAndCancelsTheTimer() throws InterruptedException {
        Cooldowns<String> cooldowns = cooldowns();
        cooldowns.tryUse("ann", "Volley");
        cooldowns.tryUse("ann", "Volley");
        advance(S.multipliedBy(3));
        assertThat(cooldowns.charges("ann", "Volley")).isEqualTo(2);
        cooldowns.reset("ann", "Volley");
        assertThat(cooldowns.charges("ann", "Volley")).isEqualTo(3);
        assertThat(cooldowns.remaining("ann", "Volley")).isZero();
        drain();
        assertThat(cooldowns.activeEntities()).isZero();
        assertThat(timer.stats().pending()).isZero();
        advance(S.multipliedBy(10));
        assertThat(heard).as("only the recharge before the reset").containsExactly("ann:Volley");
        cooldowns.reset("nobody", "Volley");
        assertThat(cooldowns.activeEntities()).isZero();
    }

    @Test
    void anIdleEntityHoldsNoStateAndNoTimer() throws InterruptedException {
        Cooldowns<String> cooldowns = cooldowns();
        for (int i = 0; i < 100; i++) {
            cooldowns.tryUse("p" + i, "Dash");
            cooldowns.tryUse("p" + i, "Volley");
        }
        drain();
        assertThat(cooldowns.activeEntities()).isEqualTo(100);
        assertThat(timer.stats().pending()).isEqualTo(200);
        advance(S);
        assertThat(cooldowns.activeEntities()).as("Volley still recharging").isEqualTo(100);
        assertThat(timer.stats().pending()).isEqualTo(100);
        advance(S);
        assertThat(cooldowns.activeEntities()).isZero();
        assertThat(timer.stats().pending()).isZero();
        assertThat(heard).hasSize(200);
    }

    @Test
    void forgetDropsTheEntityAndCancelsItsTimers() throws InterruptedException {
        Cooldowns<String> cooldowns = cooldowns();
        cooldowns.tryUse("ann", "Dash");
        cooldowns.tryUse("ann", "Fireball");
        cooldowns.tryUse("bob", "Dash");
        cooldowns.forget("ann");
        drain();
        assertThat(cooldowns.activeEntities()).isEqualTo(1);
        assertThat(timer.stats().pending()).isEqualTo(1);
        assertThat(cooldowns.charges("ann", "Dash")).isEqualTo(1);
        assertThat(cooldowns.tryUse("ann", "Dash").used()).isTrue();
        cooldowns.forget("ann");
        cooldowns.forget("nobody");
        advance(S.multipliedBy(5));
        assertThat(heard).containsExactly("bob:Dash");
        assertThat(cooldowns.activeEntities()).isZero();
    }

    @Test
    void clockNearLongMaxValueWraps() throws InterruptedException {
        clock = new ManualNanoClock(Long.MAX_VALUE - SECOND / 2);
        Cooldowns<String> cooldowns = cooldowns();
        cooldowns.tryUse("ann", "Fireball");
        cooldowns.tryUse("ann", "Fireball");
        advance(S.multipliedBy(3).minusNanos(1));
        assertThat(cooldowns.tryUse("ann", "Fireball").remainingNanos()).isEqualTo(1);
        advance(Duration.ofNanos(1));
        assertThat(clock.nanoTime()).isNegative();
        assertThat(cooldowns.charges("ann", "Fireball")).isEqualTo(1);
        assertThat(cooldowns.remaining("ann", "Fireball")).isEqualTo(S.multipliedBy(3));
        advance(S.multipliedBy(3));
        assertThat(cooldowns.charges("ann", "Fireball")).isEqualTo(2);
        assertThat(heard).hasSize(2);
    }

    @Test
    void badInputIsNamed() {
        Cooldowns<String> cooldowns = cooldowns();
        assertThatThrownBy(() -> cooldowns.tryUse("ann", "Meteor"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown ability: Meteor");
        assertThatThrownBy(() -> cooldowns.remaining("ann", "Meteor")).hasMessageContaining("Meteor");
        assertThatThrownBy(() -> cooldowns.tryUse(null, "Dash"))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("entity");
        assertThatThrownBy(() -> cooldowns.tryUse("ann", null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> cooldowns.reduce("ann", "Dash", Duration.ofMillis(-5)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("PT-0.005S");
        assertThatThrownBy(() -> cooldowns.forget(null)).isInstanceOf(NullPointerException.class);

        CooldownsBuilder<String> builder = Cooldowns.builder(timer, clock);
        assertThatThrownBy(() -> builder.ability("A", Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("A")
                .hasMessageContaining("PT-1S");
        assertThatThrownBy(() -> builder.ability("A", Duration.ZERO)).hasMessageContaining("PT0S");
        assertThatThrownBy(() -> builder.ability("A", S, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("charges of A must be at least 1: 0");
        builder.ability("A", S);
        assertThatThrownBy(() -> builder.ability("A", S)).hasMessageContaining("defined twice: A");
        assertThatThrownBy(() -> Cooldowns.<String>builder(timer, clock).build())
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> builder.listener(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void closeCancelsEveryTimerAndRefusesUse() throws InterruptedException {
        Cooldowns<String> cooldowns = cooldowns();
        cooldowns.tryUse("ann", "Dash");
        cooldowns.tryUse("bob", "Fireball");
        cooldowns.close();
        drain();
        assertThat(timer.stats().pending()).isZero();
        assertThatThrownBy(() -> cooldowns.tryUse("ann", "Dash"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
        assertThatThrownBy(() -> cooldowns.charges("ann", "Dash")).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> cooldowns.reset("ann", "Dash")).isInstanceOf(IllegalStateException.class);
        advance(S.multipliedBy(5));
        assertThat(heard).isEmpty();
        cooldowns.close();
    }

    @Test
    void definitionsCanBeRead() {
        Cooldowns<String> cooldowns = cooldowns();
        assertThat(cooldowns.abilities()).containsExactly("Fireball", "Dash", "Volley");
        assertThat(cooldowns.cooldown("Fireball")).isEqualTo(S.multipliedBy(3));
        assertThat(cooldowns.maxCharges("Volley")).isEqualTo(3);
    }

    @Test
    void concurrentUsesOfOneEntitySpendEachChargeOnce() throws Exception {
        Cooldowns<String> cooldowns = cooldowns();
        int threads = 4;
        int rounds = 400;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int round = 0; round < rounds; round++) {
                CyclicBarrier barrier = new CyclicBarrier(threads);
                AtomicInteger used = new AtomicInteger();
                List<Future<?>> futures = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    futures.add(pool.submit(() -> {
                        barrier.await();
                        for (int i = 0; i < 4; i++) {
                            if (cooldowns.tryUse("ann", "Volley").used()) {
                                used.incrementAndGet();
                            }
                        }
                        return null;
                    }));
                }
                for (Future<?> future : futures) {
                    future.get(10, TimeUnit.SECONDS);
                }
                int expected = round == 0 || round % 2 == 1 ? 3 : 1;
                assertThat(used.get()).as("round " + round).isEqualTo(expected);
                assertThat(cooldowns.charges("ann", "Volley")).isZero();
                if (round % 2 == 0) {
                    cooldowns.reset("ann", "Volley");
                } else {
                    advance(S.multipliedBy(2));
                }
            }
        } finally {
            pool.shutdownNow();
        }
        advance(S.multipliedBy(10));
        // One charge back per advance, then the last two: a reset announces nothing.
        assertThat(heard).as("the charges that came back by time").hasSize(rounds / 2 + 2);
        assertThat(cooldowns.activeEntities()).isZero();
    }

    @Test
    void threadsRacingThroughTheSameEntitiesSpendEachChargeOnce() throws Exception {
        Cooldowns<String> cooldowns = cooldowns();
        int threads = 4;
        int entities = 20_000;
        String[] names = new String[entities];
        for (int e = 0; e < entities; e++) {
            names[e] = "p" + e;
        }
        AtomicIntegerArray used = new AtomicIntegerArray(entities);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CyclicBarrier barrier = new CyclicBarrier(threads);
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                futures.add(pool.submit(() -> {
                    barrier.await();
                    for (int e = 0; e < entities; e++) {
                        for (int i = 0; i < 2; i++) {
                            if (cooldowns.tryUse(names[e], "Volley").used()) {
                                used.incrementAndGet(e);
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> future : futures) {
                future.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        for (int e = 0; e < entities; e++) {
            assertThat(used.get(e)).as(names[e]).isEqualTo(3);
        }
        assertThat(cooldowns.activeEntities()).isEqualTo(entities);
    }

    @Test
    void concurrentEntitiesWhileTheClockMoves() throws Exception {
        Cooldowns<String> cooldowns = cooldowns();
        int threads = 4;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        AtomicInteger used = new AtomicInteger();
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int id = t;
                futures.add(pool.submit(() -> {
                    SplittableRandom random = new SplittableRandom(id);
                    for (int i = 0; i < 20_000; i++) {
                        String entity = "p" + random.nextInt(50);
                        if (cooldowns.tryUse(entity, "Volley").used()) {
                            used.incrementAndGet();
                        }
                        if (random.nextInt(100) == 0) {
                            cooldowns.reduce(entity, "Volley", Duration.ofMillis(100));
                        }
                    }
                    return null;
                }));
            }
            for (int i = 0; i < 200 && !futures.stream().allMatch(Future::isDone); i++) {
                clock.advance(Duration.ofMillis(50));
            }
            for (Future<?> future : futures) {
                future.get(10, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        advance(S.multipliedBy(10));
        assertThat(heard).as("every spent charge came back once").hasSize(used.get());
        assertThat(cooldowns.activeEntities()).isZero();
        assertThat(timer.stats().pending()).isZero();
    }

    /** The reference: one charge at a time, stepped in a loop, the way the rules read. */
    private static final class Model {
        final long cooldown;
        final int max;
        int charges;
        long readyAt;
        int recharges;

        Model(long cooldown, int max) {
            this.cooldown = cooldown;
            this.max = max;
            this.charges = max;
        }

        void settle(long now) {
            while (charges < max && now - readyAt >= 0) {
                charges++;
                recharges++;
                readyAt += cooldown;
            }
        }

        long remaining(long now) {
            return charges < max ? readyAt - now : 0;
        }
    }

    @Test
    void randomisedAgainstAModel() throws InterruptedException {
        long seed = TestSeeds.seed(3);
        try {
            runModel(seed);
        } catch (AssertionError | RuntimeException e) {
            throw new AssertionError("seed " + seed + ": " + e.getMessage(), e);
        }
    }

    private void runModel(long seed) throws InterruptedException {
        SplittableRandom random = new SplittableRandom(seed);
        clock = new ManualNanoClock(
                random.nextBoolean() ? random.nextLong() : Long.MAX_VALUE - random.nextLong(SECOND * 20));
        Cooldowns<String> cooldowns = cooldowns();
        String[] entities = {"ann", "bob", "cy"};
        String[] abilities = {"Fireball", "Dash", "Volley"};
        Map<String, Model> models = new HashMap<>();
        Map<String, Integer> heardCounts = new HashMap<>();
        for (int step = 0; step < 3_000; step++) {
            String entity = entities[random.nextInt(entities.length)];
            String ability = abilities[random.nextInt(abilities.length)];
            Model model = models.computeIfAbsent(
                    entity + ":" + ability,
                    k -> new Model(cooldowns.cooldown(ability).toNanos(), cooldowns.maxCharges(ability)));
            long now = clock.nanoTime();
            model.settle(now);
            String what = "step " + step + " " + entity + ":" + ability;
            int op = random.nextInt(100);
            if (op < 45) {
                CooldownResult result = cooldowns.tryUse(entity, ability);
                boolean ready = model.charges > 0;
                if (ready) {
                    if (model.charges == model.max) {
                        model.readyAt = now + model.cooldown;
                    }
                    model.charges--;
                }
                assertThat(result.used()).as(what).isEqualTo(ready);
                assertThat(result.charges()).as(what).isEqualTo(model.charges);
                assertThat(result.remainingNanos()).as(what).isEqualTo(model.remaining(now));
            } else if (op < 55) {
                long by = random.nextLong(4 * SECOND);
                cooldowns.reduce(entity, ability, Duration.ofNanos(by));
                drain(); // a charge the reduction finished is announced before anything forgets it
                if (model.charges < model.max) {
                    model.readyAt = by >= model.readyAt - now ? now : model.readyAt - by;
                    model.settle(now);
                }
            } else if (op < 58) {
                cooldowns.reset(entity, ability);
                model.charges = model.max;
            } else if (op < 60) {
                cooldowns.forget(entity);
                for (String a : abilities) {
                    Model m = models.get(entity + ":" + a);
                    if (m != null) {
                        m.settle(now);
                        m.charges = m.max;
                    }
                }
            } else if (op < 75) {
                assertThat(cooldowns.charges(entity, ability)).as(what).isEqualTo(model.charges);
                assertThat(cooldowns.remaining(entity, ability).toNanos())
                        .as(what)
                        .isEqualTo(model.remaining(now));
            } else {
                long by = random.nextInt(4) == 0 ? random.nextLong(10 * SECOND) : random.nextLong(SECOND / 2);
                advance(Duration.ofNanos(by));
            }
        }
        drain();
        clock.advance(S.multipliedBy(20));
        drain();
        long now = clock.nanoTime();
        for (String name : heard) {
            heardCounts.merge(name, 1, Integer::sum);
        }
        for (Map.Entry<String, Model> entry : models.entrySet()) {
            entry.getValue().settle(now);
            assertThat(heardCounts.getOrDefault(entry.getKey(), 0))
                    .as("recharges heard for " + entry.getKey())
                    .isEqualTo(entry.getValue().recharges);
        }
        assertThat(cooldowns.activeEntities()).isZero();
        assertThat(timer.stats().pending()).isZero();
    }
}
