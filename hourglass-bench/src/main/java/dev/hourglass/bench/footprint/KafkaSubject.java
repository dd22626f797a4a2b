package dev.hourglass.bench.footprint;

import org.apache.kafka.server.util.timer.SystemTimer;
import org.apache.kafka.server.util.timer.TimerTask;

/**
 * Kafka's {@link SystemTimer} (1 ms tick, 20 buckets per wheel, overflow wheels made on demand).
 * Kafka ties one {@link TimerTask} to one entry, so each timer is a TimerTaskEntry plus the smallest
 * possible TimerTask; both count.
 *
 * <p>Complexity: Kafka's. Ordering: n/a. Thread-safety: one thread; nothing advances the clock.
 */
final class KafkaSubject implements Subject {

    private final TimerTask[] tasks;
    private SystemTimer timer;

    KafkaSubject(int capacity) {
        this.tasks = new TimerTask[capacity];
    }

    @Override
    public void open() {
        timer = new SystemTimer("footprint-kafka");
    }

    @Override
    public void schedule(int index, long delayNanos) {
        TimerTask task = new NoopTask(delayNanos / 1_000_000);
        tasks[index] = task;
        timer.add(task);
    }

    @Override
    public void cancel(int index) {
        tasks[index].cancel();
        tasks[index] = null;
    }

    @Override
    public Object root() {
        return timer;
    }

    @Override
    public void close() {
        timer.close();
        timer = null;
    }

    /** The smallest task Kafka accepts: a delay and nothing to run. */
    private static final class NoopTask extends TimerTask {
        NoopTask(long delayMs) {
            super(delayMs);
        }

        @Override
        public void run() {}
    }
}
