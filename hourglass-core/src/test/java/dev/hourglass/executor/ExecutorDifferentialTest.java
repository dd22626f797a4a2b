package dev.hourglass.executor;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.NANOSECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hourglass.queue.TimerStructure;
import dev.hourglass.time.ManualNanoClock;
import dev.hourglass.timer.Timer;
import dev.hourglass.timer.Timers;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import org.junit.jupiter.api.Test;

/**
 * The differential test: seeded {@link Script}s played on the JDK's {@link
 * ScheduledThreadPoolExecutor} (one thread, on real time) and on the adapter (on a manual clock,
 * tasks on the timer's thread, then on a one-thread pool), whose transcripts must be equal line for
 * line: every call's answer or exception, which one-shot tasks ran in each phase and in what
 * order, how often each periodic task ran, what shutdownNow returned, and the states at the end.
 *
 * <p>The seed is fixed so that CI is repeatable; {@code -Dhourglass.seed=N} replays a scenario and
 * {@code -Dhourglass.seed=random} explores. Each scenario prints its seed and script.
 */
@org.junit.jupiter.api.Timeout(300)
class ExecutorDifferentialTest {

    private static final int SCENARIOS = 8;
    /** The JDK's unit of script time: long beside a phase's calls, so a delay cannot run out under them. */
    private static final long REAL_UNIT = MILLISECONDS.toNanos(100);

    private static final long MANUAL_UNIT = SECONDS.toNanos(1);

    @Test
    void theAdapterAnswersAsTheJdksExecutorDoes() throws Exception {
        long base = seed();
        for (int i = 0; i < SCENARIOS; i++) {
            Script script = new Script(base + i);
            System.out.println("ExecutorDifferentialTest: " + script);
            List<Boolean> terminated = new ArrayList<>();
            List<String> onTimerThread = playOnAdapter(script, false, terminated);
            List<String> onPool = playOnAdapter(script, true, new ArrayList<>());
            List<String> jdk = playOnJdk(script, terminated);
            assertThat(onTimerThread)
                    .as("tasks on the timer thread, %s", script)
                    .containsExactlyElementsOf(jdk);
            assertThat(onPool).as("tasks on a pool, %s", script).containsExactlyElementsOf(jdk);
        }
    }

    static long seed() {
        String property = System.getProperty("hourglass.seed");
        if (property == null) {
            return 0xE8EC_0000L;
        }
        return property.equals("random") ? new SplittableRandom().nextLong() : Long.parseLong(property);
    }

    private static List<String> playOnJdk(Script script, List<Boolean> terminated) throws InterruptedException {
        ScheduledThreadPoolExecutor jdk = new ScheduledThreadPoolExecutor(1);
        jdk.setRemoveOnCancelPolicy(true); // the adapter's cancel always removes
        jdk.setExecuteExistingDelayedTasksAfterShutdownPolicy(script.executeDelayedAfterShutdown);
        jdk.setContinueExistingPeriodicTasksAfterShutdownPolicy(script.continuePeriodicAfterShutdown);
        try {
            return new ScriptRunner(script, new ScriptRunner.Harness() {
                        @Override
                        public ScheduledExecutorService executor() {
                            return jdk;
                        }

                        @Override
                        public long unitNanos() {
                            return REAL_UNIT;
                        }

                        @Override
                        public void passUnits(int units) {}

                        @Override
                        public void settle() {}
                    })
                    .run(terminated, false);
        } finally {
            jdk.shutdownNow();
        }
    }

    private static List<String> playOnAdapter(Script script, boolean onPool, List<Boolean> terminated)
            throws InterruptedException {
        ManualNanoClock clock = new ManualNanoClock(Long.MAX_VALUE - 5 * MANUAL_UNIT);
        Timer timer = Timers.builder()
                .structure(TimerStructure.BINARY_HEAP)
                .clock(clock)
                .startTimerThread();
        ExecutorService pool = onPool ? Executors.newSingleThreadExecutor() : null;
        TimerExecutorBuilder builder = Implementations.policies(
                TimerExecutors.builder(), script.executeDelayedAfterShutdown, script.continuePeriodicAfterShutdown);
        if (onPool) {
            builder.taskExecutor(pool);
        }
        TimerExecutorService adapter = builder.build(timer);
        try {
            return new ScriptRunner(script, new ScriptRunner.Harness() {
                        @Override
                        public ScheduledExecutorService executor() {
                            return adapter;
                        }

                        @Override
                        public long unitNanos() {
                            return MANUAL_UNIT;
                        }

                        @Override
                        public void passUnits(int units) throws InterruptedException {
                            for (int i = 0; i < units; i++) {
                                clock.advance(MANUAL_UNIT);
                                settle();
                            }
                        }

                        @Override
                        public void settle() throws InterruptedException {
                            // A run on the pool files its next run on the timer: a few rounds.
                            for (int i = 0; i < 3; i++) {
                                CountDownLatch probe = new CountDownLatch(1);
                                timer.schedule(probe::countDown, 0, NANOSECONDS);
                                assertThat(probe.await(10, SECONDS)).isTrue();
                                if (pool != null) {
                                    try {
                                        pool.submit(() -> {}).get(10, SECONDS);
                                    } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
                                        throw new AssertionError("the pool's probe", e);
                                    }
                                }
                            }
                        }
                    })
                    .run(terminated, true);
        } finally {
            adapter.shutdownNow();
            timer.close();
            if (pool != null) {
                pool.shutdownNow();
            }
        }
    }
}
