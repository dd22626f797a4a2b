package dev.hourglass.timer;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.hourglass.queue.TimerStructure;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The driver contract on the timer-thread driver, and what only a real clock shows: an idle timer
 * thread costs no CPU, and a deadline earlier than the one it sleeps towards still fires on time.
 */
class TimerThreadTimerTest extends TimerContractTest {

    /** The idle budget of the issue: under 10 ms of the timer thread's CPU over one second. */
    private static final long IDLE_CPU_BUDGET_NANOS = 10_000_000;

    @Override
    Timer newTimer(TimerBuilder builder) {
        return builder.startTimerThread();
    }

    /** A timer on the system clock with a 1 ms tick whose thread the test can watch. */
    private static Timer realTimer(TimerStructure structure, List<Thread> threads) {
        ThreadFactory factory = task -> {
            Thread thread = new Thread(task, "real-clock-driver");
            thread.setDaemon(true);
            threads.add(thread);
            return thread;
        };
        return Timers.builder()
                .structure(structure)
                .tick(Duration.ofMillis(1))
                .threadFactory(factory)
                .startTimerThread();
    }

    /** Returns once the driver has taken everything scheduled so far and gone back to sleep. */
    private static void settle(Timer timer) throws InterruptedException {
        CountDownLatch probe = new CountDownLatch(1);
        timer.schedule(probe::countDown, Duration.ZERO);
        await(probe, "the settling probe");
    }

    private static ThreadMXBean cpuClock() {
        ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        assumeTrue(bean.isThreadCpuTimeSupported(), "thread CPU time is not measurable on this JVM");
        if (!bean.isThreadCpuTimeEnabled()) {
            bean.setThreadCpuTimeEnabled(true);
        }
        return bean;
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(
            value = TimerStructure.class,
            names = {"HIERARCHICAL_WHEEL", "HASHED_WHEEL", "SIMPLE_WHEEL", "BINARY_HEAP"})
    void anIdleTimerThreadUsesNoCpu(TimerStructure structure) throws InterruptedException {
        ThreadMXBean cpu = cpuClock();
        List<Thread> threads = new ArrayList<>();
        Timer empty = realTimer(structure, threads);
        Timer oneFar = realTimer(structure, threads);
        try {
            CountDownLatch farFired = new CountDownLatch(1);
            oneFar.schedule(farFired::countDown, Duration.ofHours(1));
            settle(empty);
            settle(oneFar);
            long[] before = threads.stream()
                    .mapToLong(t -> cpu.getThreadCpuTime(t.getId()))
                    .toArray();
            // One second of idleness, during which the far timer must of course not fire.
            assertThat(farFired.await(1, SECONDS)).isFalse();
            for (int i = 0; i < threads.size(); i++) {
                long used = cpu.getThreadCpuTime(threads.get(i).getId()) - before[i];
                assertThat(used)
                        .as("CPU of the %s timer thread over one second, ns", i == 0 ? "empty" : "one-far-timer")
                        .isLessThan(IDLE_CPU_BUDGET_NANOS);
            }
        } finally {
            empty.close();
            oneFar.close();
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(
            value = TimerStructure.class,
            names = {"HIERARCHICAL_WHEEL", "HASHED_WHEEL", "SIMPLE_WHEEL", "BINARY_HEAP"})
    void anEarlierDeadlineWakesTheSleepingThreadOnTime(TimerStructure structure) throws InterruptedException {
        Timer timer = realTimer(structure, new ArrayList<>());
        try {
            // Without the wake-up it would run an hour late. The bound only has to tell those apart:
            // scheduling latency on a loaded 2-core CI machine is no unit test's business (a full
            // build once measured 51 ms here), and lateness is measured by the benchmarks.
            long allowedNanos = MILLISECONDS.toNanos(500);
            AtomicLong ranAt = new AtomicLong();
            CountDownLatch ran = new CountDownLatch(1);
            Timeout far = timer.schedule(
                    () -> {
                        ranAt.set(System.nanoTime());
                        ran.countDown();
                    },
                    Duration.ofHours(1));
            settle(timer); // now asleep towards the far deadline

            AtomicLong newRanAt = new AtomicLong();
            CountDownLatch newRan = new CountDownLatch(1);
            long newDeadline = System.nanoTime() + MILLISECONDS.toNanos(20);
            timer.schedule(
                    () -> {
                        newRanAt.set(System.nanoTime());
                        newRan.countDown();
                    },
                    Duration.ofMillis(20));
            await(newRan, "a new earlier timeout");
            assertThat(newRanAt.get() - newDeadline).isBetween(0L, allowedNanos);

            settle(timer);
            long movedDeadline = System.nanoTime() + MILLISECONDS.toNanos(20);
            assertThat(far.reschedule(Duration.ofMillis(20))).isTrue();
            await(ran, "the far timeout moved earlier");
            assertThat(ranAt.get() - movedDeadline).isBetween(0L, allowedNanos);
        } finally {
            timer.close();
        }
    }

    @Test
    void anInterruptedTimerThreadStaysIdleAndKeepsWorking() throws InterruptedException {
        ThreadMXBean cpu = cpuClock();
        List<Thread> threads = new ArrayList<>();
        Timer timer = realTimer(TimerStructure.HIERARCHICAL_WHEEL, threads);
        try {
            settle(timer);
            Thread driver = threads.get(0);
            driver.interrupt();
            settle(timer);
            long before = cpu.getThreadCpuTime(driver.getId());
            CountDownLatch never = new CountDownLatch(1);
            assertThat(never.await(500, MILLISECONDS)).isFalse();
            assertThat(cpu.getThreadCpuTime(driver.getId()) - before).isLessThan(IDLE_CPU_BUDGET_NANOS);
            settle(timer);
        } finally {
            timer.close();
        }
    }

    @Test
    void aThreadFactoryMustMakeAThread() {
        assertThatThrownBy(() -> Timers.builder().threadFactory(task -> null).startTimerThread())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("threadFactory");
    }
}
