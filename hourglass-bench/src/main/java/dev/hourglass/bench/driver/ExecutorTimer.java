package dev.hourglass.bench.driver;

import dev.hourglass.executor.TimerExecutorService;
import dev.hourglass.executor.TimerExecutors;
import dev.hourglass.timer.Timers;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Hourglass's {@code ScheduledExecutorService} ({@link TimerExecutors}) over its own timer thread
 * on the default structure, 1 ms tick, tasks run on the timer thread: called as a user of the JDK's
 * interface calls it, so that it compares with {@link JdkTimer}; reschedule is cancel plus a new
 * schedule, as the interface has no other.
 *
 * <p>Complexity: that of the adapter. Ordering: that of the structure.
 *
 * <p>Thread-safety: safe from any thread.
 */
final class ExecutorTimer implements TimerUnderTest {

    private final CapturingThreadFactory threads = new CapturingThreadFactory("hourglass-executor");
    private final TimerExecutorService executor = TimerExecutors.builder()
            .startTimerThread(Timers.builder().tick(Duration.ofMillis(1)).threadFactory(threads));

    @Override
    public Object schedule(Task task, long delayNanos) {
        return executor.schedule(task, delayNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void cancel(Object handle) {
        ((Future<?>) handle).cancel(false);
    }

    @Override
    public Object reschedule(Object handle, Task task, long delayNanos) {
        ((Future<?>) handle).cancel(false);
        return executor.schedule(task, delayNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public List<Thread> workers() {
        return threads.threads();
    }

    @Override
    public void close() {
        executor.shutdownNow();
        executor.timer().close();
    }
}
