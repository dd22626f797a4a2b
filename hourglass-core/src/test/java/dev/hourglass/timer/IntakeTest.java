package dev.hourglass.timer;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.ref.WeakReference;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The intake against a queue as the model: every node pushed comes out once, in the order pushed;
 * a push says whether it found the intake empty; a taken node is not kept alive by it. The races
 * are in hourglass-jcstress (IntakeTwoProducers, IntakeProducerVsTaker); the threaded run below
 * checks the same promises at volume.
 */
class IntakeTest {

    private static TimeoutNode node(Object name) {
        return new TimeoutNode(null, null, name, 0, TimeoutNode.PENDING);
    }

    private static List<TimeoutNode> takeAll(Intake intake) {
        List<TimeoutNode> taken = new ArrayList<>();
        for (TimeoutNode n = intake.takeAll(); n != null; n = Intake.next(n)) {
            taken.add(n);
        }
        return taken;
    }

    @Test
    void matchesAQueueUnderRandomPushesAndTakes() {
        long seed = Long.getLong("hourglass.seed", 0x5EED_1A7EL); // fixed, so that CI is repeatable
        System.out.println("IntakeTest seed " + seed + " (replay with -Dhourglass.seed=" + seed + ")");
        Random random = new Random(seed);
        Intake intake = new Intake();
        ArrayDeque<TimeoutNode> model = new ArrayDeque<>();
        for (int step = 0; step < 20_000; step++) {
            if (random.nextInt(4) > 0) {
                for (int i = random.nextInt(5); i > 0; i--) {
                    TimeoutNode n = node(step);
                    assertThat(intake.push(n))
                            .as("seed %d, step %d: found it empty", seed, step)
                            .isEqualTo(model.isEmpty());
                    model.add(n);
                }
            } else {
                List<TimeoutNode> expected = new ArrayList<>(model);
                model.clear();
                assertThat(takeAll(intake)).as("seed %d, step %d", seed, step).containsExactlyElementsOf(expected);
            }
            assertThat(intake.isEmpty()).as("seed %d, step %d", seed, step).isEqualTo(model.isEmpty());
        }
    }

    @Test
    void anEmptyIntakeGivesNothing() {
        Intake intake = new Intake();
        assertThat(intake.isEmpty()).isTrue();
        assertThat(intake.takeAll()).isNull();
    }

    @Test
    void aTakenNodeIsNotKeptAlive() {
        Intake intake = new Intake();
        WeakReference<TimeoutNode> taken = pushAndTake(intake);
        TimeoutNode kept = node("kept");
        intake.push(kept);
        for (int i = 0; i < 10 && taken.get() != null; i++) {
            // HotSpot's default: a full collection, which clears weak references before it returns.
            System.gc();
        }
        assertThat(taken.get()).as("the node taken from the intake").isNull();
        assertThat(takeAll(intake)).containsExactly(kept);
    }

    /** In a method of its own, so that no local variable of the test keeps the node. */
    private static WeakReference<TimeoutNode> pushAndTake(Intake intake) {
        TimeoutNode n = node("taken");
        intake.push(n);
        assertThat(takeAll(intake)).containsExactly(n);
        return new WeakReference<>(n);
    }

    @Test
    void threadsPushingWhileTheDriverTakesLoseNothingAndKeepEachThreadsOrder() throws Exception {
        int producers = 4;
        int perProducer = 50_000;
        Intake intake = new Intake();
        CountDownLatch start = new CountDownLatch(1);
        AtomicBoolean failed = new AtomicBoolean();
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int producer = p;
            Thread t = new Thread(() -> {
                try {
                    start.await();
                    for (int i = 0; i < perProducer; i++) {
                        intake.push(node(new int[] {producer, i}));
                    }
                } catch (InterruptedException e) {
                    failed.set(true);
                }
            });
            t.start();
            threads.add(t);
        }
        int[] next = new int[producers];
        int seen = 0;
        start.countDown();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (seen < producers * perProducer && System.nanoTime() < deadline) {
            for (TimeoutNode n : takeAll(intake)) {
                int[] id = (int[]) n.task();
                assertThat(id[1]).as("producer %d's next node", id[0]).isEqualTo(next[id[0]]);
                next[id[0]]++;
                seen++;
            }
        }
        for (Thread t : threads) {
            t.join();
        }
        assertThat(failed).isFalse();
        assertThat(seen).isEqualTo(producers * perProducer);
        assertThat(intake.isEmpty()).isTrue();
    }
}
