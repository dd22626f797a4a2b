package dev.hourglass.timer;

import dev.hourglass.queue.TimerQueue;
import dev.hourglass.queue.TimerStructure;
import dev.hourglass.time.NanoClock;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;

/** The choices a {@link TimerBuilder} collected, handed to a driver. Immutable once built. */
final class TimerSettings {

    final TimerStructure structure;
    final long tickNanos;
    final NanoClock clock;
    final Executor executor;
    final ThreadFactory threadFactory;
    final long maxPending;
    final Timer.ExceptionHandler exceptionHandler;

    TimerSettings(
            TimerStructure structure,
            long tickNanos,
            NanoClock clock,
            Executor executor,
            ThreadFactory threadFactory,
            long maxPending,
            Timer.ExceptionHandler exceptionHandler) {
        this.structure = structure;
        this.tickNanos = tickNanos;
        this.clock = clock;
        this.executor = executor;
        this.threadFactory = threadFactory;
        this.maxPending = maxPending;
        this.exceptionHandler = exceptionHandler;
    }

    TimerQueue<TimeoutTask> newQueue() {
        return structure.newQueue(clock.nanoTime(), tickNanos);
    }
}
