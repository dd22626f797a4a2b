package dev.hourglass.bench.driver;

import io.netty.util.HashedWheelTimer;
import io.netty.util.Timeout;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Netty's {@link HashedWheelTimer} with a 1 ms tick and 512 ticks per wheel; reschedule is cancel
 * plus a new timeout, as Netty has no other.
 *
 * <p>Complexity: that of Netty. Ordering: that of Netty.
 *
 * <p>Thread-safety: safe from any thread.
 */
final class NettyTimer implements TimerUnderTest {

    private final CapturingThreadFactory threads = new CapturingThreadFactory("netty-wheel");
    private final HashedWheelTimer timer = new HashedWheelTimer(threads, 1, TimeUnit.MILLISECONDS, 512);

    NettyTimer() {
        timer.start(); // Netty starts its worker lazily; start it now so it is measured from here
    }

    @Override
    public Object schedule(Task task, long delayNanos) {
        return timer.newTimeout(task, delayNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void cancel(Object handle) {
        ((Timeout) handle).cancel();
    }

    @Override
    public Object reschedule(Object handle, Task task, long delayNanos) {
        ((Timeout) handle).cancel();
        return timer.newTimeout(task, delayNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public List<Thread> workers() {
        return threads.threads();
    }

    @Override
    public void close() {
        timer.stop();
    }
}
