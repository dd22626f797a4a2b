package dev.hourglass.queue;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Random operations on an exact queue that check its structure's own invariants after every step
 * and inside the consumer, where the structure must already be consistent. Deadlines crowd into a
 * few nanoseconds so that equal deadlines, and their insertion order, are the common case; every
 * delivery is checked to be the least pending (deadline, insertion).
 */
final class StructureStress {

    private final TimerQueue<Integer> queue;
    private final Runnable invariants;
    private final SplittableRandom random;
    private final List<TimerHandle<Integer>> handles = new ArrayList<>();
    /** Insertion sequence of every pending handle; a reschedule counts as a new insertion. */
    private final Map<TimerHandle<Integer>, Long> sequence = new IdentityHashMap<>();

    private long nextSequence;
    private int nextPayload;

    private StructureStress(TimerQueue<Integer> queue, Runnable invariants, long seed) {
        this.queue = queue;
        this.invariants = invariants;
        this.random = new SplittableRandom(seed);
    }

    static void run(TimerQueue<Integer> queue, Runnable invariants, long seed, int operations) {
        StructureStress stress = new StructureStress(queue, invariants, seed);
        for (int step = 0; step < operations; step++) {
            try {
                stress.operation();
                invariants.run();
                assertThat(queue.size()).as("size").isEqualTo(stress.sequence.size());
            } catch (Throwable e) {
                throw new AssertionError(
                        "seed " + seed + " (replay with -Dhourglass.seed), step " + step + ": " + e, e);
            }
        }
    }

    private void operation() {
        int dice = random.nextInt(100);
        if (dice < (sequence.size() < 400 ? 45 : 25)) {
            schedule();
        } else if (dice < 60) {
            TimerHandle<Integer> h = randomPending();
            if (h != null) {
                assertThat(queue.cancel(h)).isTrue();
                sequence.remove(h);
            }
        } else if (dice < 80) {
            TimerHandle<Integer> h = randomPending();
            if (h != null) {
                reschedule(h);
            }
        } else if (dice < 99) {
            poll();
        } else {
            queue.clear(h -> assertThat(sequence.remove(h)).isNotNull());
            assertThat(sequence).isEmpty();
        }
    }

    /** Mostly within a few nanoseconds of now, often equal; sometimes overdue or far. */
    private long deadline() {
        long now = queue.time();
        int kind = random.nextInt(10);
        if (kind < 7) {
            return now + random.nextLong(-3, 12);
        } else if (kind < 9) {
            return now + random.nextLong(0, 1_000);
        }
        return now + random.nextLong(0, Long.MAX_VALUE);
    }

    private void schedule() {
        TimerHandle<Integer> h = queue.schedule(deadline(), nextPayload++);
        handles.add(h);
        sequence.put(h, nextSequence++);
    }

    private void reschedule(TimerHandle<Integer> h) {
        queue.reschedule(h, deadline());
        sequence.put(h, nextSequence++);
    }

    private TimerHandle<Integer> randomPending() {
        while (!handles.isEmpty()) {
            int i = random.nextInt(handles.size());
            TimerHandle<Integer> h = handles.get(i);
            if (h.isPending()) {
                return h;
            }
            handles.set(i, handles.get(handles.size() - 1));
            handles.remove(handles.size() - 1);
        }
        return null;
    }

    private void poll() {
        long now = queue.time() + (random.nextInt(4) == 0 ? 0 : random.nextLong(0, 8));
        int limit = random.nextInt(3) == 0 ? random.nextInt(0, 5) : Integer.MAX_VALUE;
        queue.poll(
                now,
                h -> {
                    long seq = sequence.remove(h);
                    assertThat(h.isPending()).isFalse();
                    assertThat(h.deadline() - now).as("never early").isLessThanOrEqualTo(0);
                    for (Map.Entry<TimerHandle<Integer>, Long> other : sequence.entrySet()) {
                        long a = h.deadline() - now;
                        long b = other.getKey().deadline() - now;
                        assertThat(a < b || (a == b && seq < other.getValue()))
                                .as("delivered %s before pending %s", h, other.getKey())
                                .isTrue();
                    }
                    invariants.run();
                    int reenter = random.nextInt(8);
                    if (reenter == 0) {
                        queue.reschedule(h, now + random.nextLong(-2, 4));
                        sequence.put(h, nextSequence++);
                    } else if (reenter == 1) {
                        schedule();
                    } else if (reenter == 2) {
                        TimerHandle<Integer> other = randomPending();
                        if (other != null) {
                            reschedule(other);
                        }
                    }
                },
                limit);
    }
}
