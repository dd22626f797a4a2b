package dev.hourglass.bench.footprint;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The JDK's {@link ScheduledThreadPoolExecutor} with one thread and one shared {@link Runnable}
 * (so each timer is a ScheduledFutureTask plus the adapter that wraps the Runnable), with
 * remove-on-cancel on or off. Off (the default), a cancelled task stays in the queue until its
 * delay ends.
 *
 * <p>Complexity: the JDK's. Ordering: n/a. Thread-safety: scheduled and cancelled from one thread.
 */
final class JdkSubject implements Subject {

    private static final Runnable TASK = () -> {};

    private final boolean removeOnCancel;
    private final ScheduledFuture<?>[] futures;
    private ScheduledThreadPoolExecutor executor;

    JdkSubject(boolean removeOnCancel, int capacity) {
        this.removeOnCancel = removeOnCancel;
        this.futures = new ScheduledFuture<?>[capacity];
    }

    @Override
    public void open() {
        executor = new ScheduledThreadPoolExecutor(1, r -> new Thread(r, "footprint-jdk"));
        executor.setRemoveOnCancelPolicy(removeOnCancel);
        executor.prestartAllCoreThreads();
    }

    @Override
    public void schedule(int index, long delayNanos) {
        futures[index] = executor.schedule(TASK, delayNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void cancel(int index) {
        futures[index].cancel(false);
        futures[index] = null;
    }

    @Override
    public void close() {
        executor.shutdownNow();
        try {
            if (!executor.awaitTermination(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the executor's thread did not stop within 10 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        executor = null;
    }
}
