package dev.hourglass.bench.driver;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.server.util.timer.SystemTimer;
import org.apache.kafka.server.util.timer.SystemTimerReaper;
import org.apache.kafka.server.util.timer.TimerTask;

/**
 * Kafka's {@link SystemTimer} with its defaults (1 ms tick, 20 buckets per wheel, overflow wheels
 * above) wrapped in the {@link SystemTimerReaper} Kafka's purgatories use: a thread that calls
 * {@code advanceClock(200)} in a loop, each call waiting up to 200 ms for a bucket to expire. Due
 * tasks run on the timer's own single-thread executor. Delays are whole milliseconds, rounded up;
 * reschedule is cancel plus a new task, as Kafka has no other.
 *
 * <p>Complexity: that of Kafka. Ordering: bucket (1 ms) order.
 *
 * <p>Thread-safety: safe from any thread.
 */
final class KafkaTimer implements TimerUnderTest {

    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    private final String executorThread;
    private final String reaperThread;
    private final SystemTimerReaper timer;

    KafkaTimer() {
        int id = SEQUENCE.incrementAndGet();
        String name = "kafka-timer-" + id;
        executorThread = SystemTimer.SYSTEM_TIMER_THREAD_PREFIX + name;
        reaperThread = "kafka-reaper-" + id;
        timer = new SystemTimerReaper(reaperThread, new SystemTimer(name));
    }

    /** A Kafka task carries its delay, so every schedule makes one, as Kafka's own callers do. */
    private static final class KafkaTask extends TimerTask {
        private final Runnable task;

        KafkaTask(long delayMs, Runnable task) {
            super(delayMs);
            this.task = task;
        }

        @Override
        public void run() {
            task.run();
        }
    }

    private static long millisRoundedUp(long nanos) {
        return (nanos + 999_999) / 1_000_000;
    }

    @Override
    public Object schedule(Task task, long delayNanos) {
        KafkaTask timeout = new KafkaTask(millisRoundedUp(delayNanos), task);
        timer.add(timeout);
        return timeout;
    }

    @Override
    public void cancel(Object handle) {
        ((TimerTask) handle).cancel();
    }

    @Override
    public Object reschedule(Object handle, Task task, long delayNanos) {
        ((TimerTask) handle).cancel();
        return schedule(task, delayNanos);
    }

    /** Kafka names its threads itself (the executor's starts with the first due task): find them. */
    @Override
    public List<Thread> workers() {
        ThreadGroup root = Thread.currentThread().getThreadGroup();
        while (root.getParent() != null) {
            root = root.getParent();
        }
        Thread[] all = new Thread[root.activeCount() + 16];
        int count = root.enumerate(all, true);
        List<Thread> found = new ArrayList<>(2);
        for (int i = 0; i < count; i++) {
            String name = all[i].getName();
            if (name.equals(executorThread) || name.equals(reaperThread)) {
                found.add(all[i]);
            }
        }
        return found;
    }

    @Override
    public void close() {
        try {
            timer.close();
        } catch (Exception e) {
            throw new IllegalStateException("Kafka's timer did not close", e);
        }
    }
}
