package dev.hourglass.bench.footprint;

import io.netty.util.HashedWheelTimer;
import io.netty.util.Timeout;
import io.netty.util.TimerTask;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Netty's {@link HashedWheelTimer}, 1 ms tick, 512 ticks, one shared task. Its worker moves new
 * timeouts from an inbox into the wheel (100,000 per tick) and removes cancelled ones at its next
 * tick; {@link #hold} parks the worker inside a task so the cancelled ones stay where they are.
 *
 * <p>Complexity: Netty's. Ordering: n/a. Thread-safety: scheduled and cancelled from one thread.
 */
final class NettySubject implements Subject {

    private static final TimerTask TASK = timeout -> {};

    private final Timeout[] timeouts;
    private CountDownLatch held;
    private CountDownLatch release;
    private HashedWheelTimer timer;

    NettySubject(int capacity) {
        this.timeouts = new Timeout[capacity];
    }

    @Override
    public void open() {
        held = new CountDownLatch(1);
        release = new CountDownLatch(1);
        timer = new HashedWheelTimer(r -> new Thread(r, "footprint-netty"), 1, TimeUnit.MILLISECONDS, 512);
        timer.start();
    }

    @Override
    public void schedule(int index, long delayNanos) {
        timeouts[index] = timer.newTimeout(TASK, delayNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void settle() throws InterruptedException {
        // the worker takes in 100,000 timeouts per 1 ms tick; a tenth of a second takes in 1e7
        Thread.sleep(200);
    }

    @Override
    public void hold() throws InterruptedException {
        timer.newTimeout(
                timeout -> {
                    held.countDown();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                0,
                TimeUnit.NANOSECONDS);
        held.await();
    }

    @Override
    public void cancel(int index) {
        timeouts[index].cancel();
        timeouts[index] = null;
    }

    @Override
    public void close() {
        release.countDown();
        timer.stop();
        timer = null;
    }
}
