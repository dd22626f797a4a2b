package dev.hourglass.bench.driver;

import dev.hourglass.loop.EventLoop;
import dev.hourglass.queue.TimerStructure;
import dev.hourglass.timer.Timeout;
import dev.hourglass.timer.Timer;
import dev.hourglass.timer.Timers;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Hourglass's thread-safe {@link Timer} (timer thread or event loop, 1 ms tick for the wheels, or
 * the builder's defaults);
 * reschedule is {@link Timeout#reschedule}, which keeps the handle, and a reschedule to a given
 * deadline {@link Timeout#rescheduleAt}.
 *
 * <p>Complexity: that of the driver. Ordering: that of the structure.
 *
 * <p>Thread-safety: safe from any thread.
 */
final class HourglassTimer implements TimerUnderTest {

    private final Timer timer;
    private final CapturingThreadFactory threads;

    private HourglassTimer(Timer timer, CapturingThreadFactory threads) {
        this.timer = timer;
        this.threads = threads;
    }

    static HourglassTimer timerThread(TimerStructure structure) {
        CapturingThreadFactory threads = new CapturingThreadFactory("hourglass-timer");
        Timer timer = Timers.builder()
                .structure(structure)
                .tick(Duration.ofMillis(1))
                .threadFactory(threads)
                .startTimerThread();
        return new HourglassTimer(timer, threads);
    }

    static HourglassTimer defaults() {
        CapturingThreadFactory threads = new CapturingThreadFactory("hourglass-timer");
        return new HourglassTimer(Timers.builder().threadFactory(threads).startTimerThread(), threads);
    }

    static HourglassTimer eventLoop(TimerStructure structure) {
        CapturingThreadFactory threads = new CapturingThreadFactory("hourglass-loop");
        EventLoop loop = EventLoop.open(
                Timers.builder().structure(structure).tick(Duration.ofMillis(1)).threadFactory(threads));
        loop.start();
        return new HourglassTimer(loop, threads);
    }

    @Override
    public Object schedule(Task task, long delayNanos) {
        return timer.schedule(task, delayNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void cancel(Object handle) {
        ((Timeout) handle).cancel();
    }

    @Override
    public Object reschedule(Object handle, Task task, long delayNanos) {
        ((Timeout) handle).reschedule(delayNanos, TimeUnit.NANOSECONDS);
        return handle;
    }

    @Override
    public Object rescheduleAt(Object handle, Task task, long deadline, long delayNanos) {
        ((Timeout) handle).rescheduleAt(deadline);
        return handle;
    }

    @Override
    public List<Thread> workers() {
        return threads.threads();
    }

    @Override
    public void close() {
        timer.close();
    }
}
