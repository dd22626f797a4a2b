package dev.hourglass.executor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hourglass.time.ManualNanoClock;
import dev.hourglass.timer.Timer;
import dev.hourglass.timer.Timers;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A stripe against a list kept by hand: seeded adds and removes (oldest, newest, any) that grow
 * the stripe to thousands of tasks and drain it again; after every step the count, and after each
 * round the tasks a copy returns, are those of the list.
 */
class TaskStripeTest {

    private final Timer timer = Timers.builder().clock(new ManualNanoClock(0)).startTimerThread();
    private final RunState state = new RunState(timer, null, true, false, () -> {});

    @AfterEach
    void stop() {
        timer.close();
    }

    @Test
    void holdsAndCountsExactlyTheTasksLinked() {
        long seed = ExecutorDifferentialTest.seed(); // fixed unless -Dhourglass.seed is given
        System.out.println("TaskStripeTest: seed " + seed + " (replay with -Dhourglass.seed=" + seed + ")");
        Random random = new Random(seed);
        TaskStripe stripe = new TaskStripe();
        List<ScheduledTask<?>> expected = new ArrayList<>();
        long sequence = 0;
        for (int round = 0; round < 6; round++) {
            int target = round % 2 == 0 ? 1 + random.nextInt(5_000) : random.nextInt(3);
            while (expected.size() != target) {
                boolean add = expected.size() < target ? random.nextInt(4) != 0 : random.nextInt(4) == 0;
                if (add) {
                    ScheduledTask<?> task = new ScheduledTask<>(state, () -> null, 0, sequence++);
                    stripe.add(task);
                    expected.add(task);
                } else if (!expected.isEmpty()) {
                    int which = random.nextInt(3);
                    int at = which == 0 ? 0 : which == 1 ? expected.size() - 1 : random.nextInt(expected.size());
                    stripe.remove(expected.remove(at));
                }
                assertThat(stripe.count()).as("seed %s", seed).isEqualTo(expected.size());
            }
            List<ScheduledTask<?>> copy = new ArrayList<>();
            stripe.copyTo(copy);
            assertThat(copy).as("seed %s", seed).containsExactlyInAnyOrderElementsOf(expected);
        }
    }
}
