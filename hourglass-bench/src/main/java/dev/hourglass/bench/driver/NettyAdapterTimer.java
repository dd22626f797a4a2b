package dev.hourglass.bench.driver;

import dev.hourglass.netty.NettyTimers;
import dev.hourglass.timer.Timers;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * hourglass-netty's Netty {@link Timer} over Hourglass's timer thread (default structure, 1 ms
 * tick), called as a Netty user calls it, so that it compares with {@link NettyTimer} and with
 * {@link HourglassTimer} on the same structure; reschedule is cancel plus a new timeout, as the
 * Netty API has no other.
 *
 * <p>Complexity: that of the adapter. Ordering: that of the structure.
 *
 * <p>Thread-safety: safe from any thread.
 */
final class NettyAdapterTimer implements TimerUnderTest {

    private final CapturingThreadFactory threads = new CapturingThreadFactory("hourglass-netty");
    private final Timer timer = NettyTimers.wrap(
            Timers.builder().tick(Duration.ofMillis(1)).threadFactory(threads).startTimerThread());

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
