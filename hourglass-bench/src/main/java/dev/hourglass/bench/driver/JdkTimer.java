package dev.hourglass.bench.driver;

import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The JDK's {@link ScheduledThreadPoolExecutor} with one thread, remove-on-cancel on or off;
 * reschedule is cancel plus a new schedule.
 *
 * <p>Complexity: O(log n) per schedule, and per cancel with remove-on-cancel (a task knows its heap
 * index); without it a cancelled task stays in the heap until its deadline. Ordering: deadline, then
 * submission.
 *
 * <p>Thread-safety: safe from any thread.
 */
final class JdkTimer implements TimerUnderTest {

    private final CapturingThreadFactory threads = new CapturingThreadFactory("jdk-stpe");
    private final ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, threads);

    JdkTimer(boolean removeOnCancel) {
        executor.setRemoveOnCancelPolicy(removeOnCancel);
        executor.prestartAllCoreThreads();
    }

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
    }
}
