package dev.hourglass.patterns;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hourglass.timer.Timer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The expiry wheel against a plain model (a map of node to deadline): random files, earlier and
 * later moves, removals, bounded and unbounded polls, with time moving by nanoseconds, ticks, whole
 * levels and years, from clocks near {@code Long.MIN_VALUE}, zero and {@code Long.MAX_VALUE}. A
 * poll never hands out a node before its deadline; an unbounded poll hands out every node whose tick
 * has ended and keeps those whose tick has not (a poll within a tick walks no bucket twice); a
 * purge hands out every node due; {@link
 * ExpiryWheel#nextDue} is never later than the earliest deadline rounded up to the tick.
 * Seeded: a failure names its seed ({@code -Dhourglass.seed=N} replays it).
 */
class ExpiryWheelTest {

    @Test
    void randomOperationsMatchAModel() {
        long seed = TestSeeds.seed(0x3EE1);
        for (int run = 0; run < 12; run++) {
            new Run(seed + run).run(4_000);
        }
    }

    @Test
    void aDeadlineOnATickBoundaryIsDueExactlyThere() {
        ExpiryWheel<String, String> wheel = new ExpiryWheel<>(0, 1_000);
        ExpiryNode<String, String> node = new ExpiryNode<>("k", "v", 64_000);
        wheel.file(node);
        assertThat(wheel.nextDue()).isEqualTo(64_000);
        assertThat(wheel.dueTime(64_000)).isEqualTo(64_000);
        assertThat(wheel.dueTime(64_001)).isEqualTo(65_000);
        List<ExpiryNode<String, String>> out = new ArrayList<>();
        assertThat(wheel.poll(63_999, Integer.MAX_VALUE, out)).isZero();
        assertThat(out).as("one nanosecond early").isEmpty();
        wheel.poll(64_000, Integer.MAX_VALUE, out);
        assertThat(out).containsExactly(node);
        assertThat(wheel.isIdle()).isTrue();
    }

    @Test
    void pollsWithinATickWalkNoNodeUntilTheTickEnds() {
        ExpiryWheel<Integer, Integer> wheel = new ExpiryWheel<>(0, 1_000);
        List<ExpiryNode<Integer, Integer>> out = new ArrayList<>();
        // At tick 64 the nodes go to the bottom level's bucket of tick 65, so no cascade walks them.
        assertThat(wheel.poll(64_000, Integer.MAX_VALUE, out)).isZero();
        List<ExpiryNode<Integer, Integer>> nodes = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            ExpiryNode<Integer, Integer> node = new ExpiryNode<>(i, i, 64_001 + i);
            nodes.add(node);
            wheel.file(node);
        }
        for (long now = 64_001; now < 65_000; now += 100) {
            assertThat(wheel.poll(now, Integer.MAX_VALUE, out))
                    .as("nodes walked at %d", now)
                    .isZero();
        }
        assertThat(wheel.poll(65_000, Integer.MAX_VALUE, out)).isEqualTo(1_000);
        assertThat(out).containsExactlyInAnyOrderElementsOf(nodes);
    }

    @Test
    void aBigCascadeDoesNotHoldBackTheBottomLevelsDueNodes() {
        ExpiryWheel<Integer, Integer> wheel = new ExpiryWheel<>(0, 1_000);
        List<ExpiryNode<Integer, Integer>> out = new ArrayList<>();
        wheel.poll(10_000, Integer.MAX_VALUE, out);
        List<ExpiryNode<Integer, Integer>> all = new ArrayList<>();
        // From tick 10, ticks 100 to 127 lie in level 1's bucket that moves down at tick 64.
        for (int i = 0; i < 2_000; i++) {
            ExpiryNode<Integer, Integer> node = new ExpiryNode<>(i, i, (100 + i % 28) * 1_000L);
            all.add(node);
            wheel.file(node);
        }
        // Tick 70 is 60 ahead: the bottom level.
        ExpiryNode<Integer, Integer> bottom = new ExpiryNode<>(-1, -1, 70_000);
        all.add(bottom);
        wheel.file(bottom);

        assertThat(wheel.poll(64_000, 10, out)).isEqualTo(10);
        assertThat(out).as("the cascade has begun, nothing is due").isEmpty();
        wheel.poll(70_000, 10, out);
        assertThat(out).as("due at tick 70 while 1,990 cascading nodes wait").containsExactly(bottom);

        wheel.poll(127_000, Integer.MAX_VALUE, out);
        assertThat(out).containsExactlyInAnyOrderElementsOf(all);
        assertThat(wheel.isIdle()).isTrue();
    }

    @Test
    void aSteadyStreamOfDueNodesDoesNotHoldACascadeBackForEver() {
        ExpiryWheel<Integer, Integer> wheel = new ExpiryWheel<>(0, 1_000);
        List<ExpiryNode<Integer, Integer>> out = new ArrayList<>();
        List<ExpiryNode<Integer, Integer>> cascade = new ArrayList<>();
        // From tick 0, tick 64 lies in level 1: these move down, all due, at the first poll.
        for (int i = 0; i < 100; i++) {
            ExpiryNode<Integer, Integer> node = new ExpiryNode<>(i, i, 64_000);
            cascade.add(node);
            wheel.file(node);
        }
        wheel.poll(64_000, 0, out);
        int key = 100;
        for (long tick = 65; tick <= 100; tick++) {
            // Each tick brings as many bottom-level nodes due as a poll takes.
            for (int i = 0; i < 10; i++) {
                wheel.file(new ExpiryNode<>(key, key++, tick * 1_000));
            }
            wheel.poll(tick * 1_000, 10, out);
        }
        assertThat(out.stream().filter(cascade::contains).count())
                .as("cascading nodes handed out in 36 polls of 10")
                .isGreaterThanOrEqualTo(36 * 10 / ExpiryWheel.CASCADE_SHARE - 1);
    }

    private static final class Run {
        private final long seed;
        private final SplittableRandom random;
        private final long tick;
        private final ExpiryWheel<Integer, Integer> wheel;
        private final Map<ExpiryNode<Integer, Integer>, Long> model = new HashMap<>();
        private long now;
        private int nextKey;

        Run(long seed) {
            this.seed = seed;
            this.random = new SplittableRandom(seed);
            this.tick = new long[] {1, 1_000, 1_000_000, 3}[random.nextInt(4)];
            long[] starts = {Long.MIN_VALUE + 1, -5, 0, Long.MAX_VALUE - 1_000_000_000L, random.nextLong()};
            this.now = starts[random.nextInt(starts.length)];
            this.wheel = new ExpiryWheel<>(now, tick);
        }

        void run(int operations) {
            int step = 0;
            try {
                for (; step < operations; step++) {
                    operation();
                }
                now += Timer.MAX_DELAY_NANOS;
                pollAndCheck(Integer.MAX_VALUE);
                assertThat(model).isEmpty();
                assertThat(wheel.isIdle()).isTrue();
            } catch (AssertionError e) {
                throw new AssertionError(
                        "wheel diverged with seed " + seed + " (replay with -Dhourglass.seed=" + seed + ") at step "
                                + step + ", tick " + tick + ": " + e.getMessage(),
                        e);
            }
        }

        private void operation() {
            int choice = random.nextInt(100);
            if (choice < 35) {
                ExpiryNode<Integer, Integer> node = new ExpiryNode<>(nextKey, nextKey++, now + ttl());
                wheel.file(node);
                model.put(node, node.deadline());
            } else if (choice < 50 && !model.isEmpty()) {
                ExpiryNode<Integer, Integer> node = anyNode();
                long deadline = now + ttl();
                wheel.moveDeadline(node, deadline);
                model.put(node, deadline);
            } else if (choice < 57 && !model.isEmpty()) {
                ExpiryNode<Integer, Integer> node = anyNode();
                wheel.remove(node);
                model.remove(node);
            } else if (choice < 80) {
                now += advance();
            } else if (choice < 85) {
                purgeAndCheck();
            } else {
                checkNextDue();
                pollAndCheck(random.nextBoolean() ? Integer.MAX_VALUE : 1 + random.nextInt(8));
            }
        }

        private void checkNextDue() {
            if (model.isEmpty()) {
                return;
            }
            assertThat(wheel.isIdle()).as("idle with %d nodes", model.size()).isFalse();
            long earliest = model.values().stream()
                    .min((a, b) -> Long.compare(a - now, b - now))
                    .orElseThrow();
            // An overdue node whose tick has ended is due now.
            long tickEnd = wheel.dueTime(earliest);
            long latestDue = tickEnd - now <= 0 ? now : tickEnd;
            assertThat(wheel.nextDue() - latestDue)
                    .as("next due after the earliest deadline's tick")
                    .isLessThanOrEqualTo(0);
        }

        private void pollAndCheck(int limit) {
            List<ExpiryNode<Integer, Integer>> out = new ArrayList<>();
            int handled = wheel.poll(now, limit, out);
            assertThat(handled).isLessThanOrEqualTo(limit).isGreaterThanOrEqualTo(out.size());
            for (ExpiryNode<Integer, Integer> node : out) {
                Long deadline = model.remove(node);
                assertThat(deadline).as("node %s handed out once", node.key).isNotNull();
                assertThat(now - deadline).as("node %s early", node.key).isGreaterThanOrEqualTo(0);
            }
            if (handled < limit) {
                for (Map.Entry<ExpiryNode<Integer, Integer>, Long> entry : model.entrySet()) {
                    assertThat(now - wheel.dueTime(entry.getValue()))
                            .as("node %s kept after its tick ended", entry.getKey().key)
                            .isLessThan(0);
                }
            }
        }

        private void purgeAndCheck() {
            List<ExpiryNode<Integer, Integer>> out = new ArrayList<>();
            wheel.purge(now, out);
            for (ExpiryNode<Integer, Integer> node : out) {
                Long deadline = model.remove(node);
                assertThat(deadline).as("node %s purged once", node.key).isNotNull();
                assertThat(now - deadline).as("node %s purged early", node.key).isGreaterThanOrEqualTo(0);
            }
            for (Map.Entry<ExpiryNode<Integer, Integer>, Long> entry : model.entrySet()) {
                assertThat(now - entry.getValue())
                        .as("node %s due but kept by a purge", entry.getKey().key)
                        .isLessThan(0);
            }
        }

        private ExpiryNode<Integer, Integer> anyNode() {
            int skip = random.nextInt(model.size());
            return model.keySet().stream().skip(skip).findFirst().orElseThrow();
        }

        private long ttl() {
            switch (random.nextInt(5)) {
                case 0:
                    return random.nextLong(1, 70 * tick);
                case 1:
                    return random.nextLong(1, 5_000 * tick);
                case 2:
                    return random.nextLong(1, 1L << (12 + random.nextInt(50)));
                case 3:
                    return Timer.MAX_DELAY_NANOS - random.nextLong(100);
                default:
                    return 64 * tick * (1 + random.nextInt(3));
            }
        }

        /** Up to 2^51 ns a step, so a run's clock stays well within the 2^63 ns the wheel spans. */
        private long advance() {
            switch (random.nextInt(5)) {
                case 0:
                    return random.nextLong(3);
                case 1:
                    return random.nextLong(1, 3 * tick);
                case 2:
                    return random.nextLong(1, 5_000 * tick);
                case 3:
                    return random.nextLong(1, 1L << (12 + random.nextInt(40)));
                default:
                    return model.isEmpty()
                            ? tick
                            : model.values().stream()
                                    .mapToLong(d -> d - now)
                                    .filter(d -> d > 0 && d < 1L << 51)
                                    .min()
                                    .orElse(1);
            }
        }
    }
}
