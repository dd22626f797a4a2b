package dev.hourglass.timer;

import dev.hourglass.queue.TimerQueue;
import dev.hourglass.queue.TimerQueues;
import dev.hourglass.queue.TimerStructure;
import dev.hourglass.time.NanoClock;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;
import java.util.function.LongFunction;

/** The choices a {@link TimerBuilder} collected, handed to a driver. Immutable once built. */
final class TimerSettings {

    final TimerStructure structure;
    final long tickNanos;
    final int slots;
    final int[] layout;
    final LongFunction<? extends TimerQueue<?>> queueFactory;
    final NanoClock clock;
    final Executor executor;
    final ThreadFactory threadFactory;
    final long maxPending;
    final Timer.ExceptionHandler exceptionHandler;

    @SuppressWarnings("checkstyle:ParameterNumber")
    TimerSettings(
            TimerStructure structure,
            long tickNanos,
            int slots,
            int[] layout,
            LongFunction<? extends TimerQueue<?>> queueFactory,
            NanoClock clock,
            Executor executor,
            ThreadFactory threadFactory,
            long maxPending,
            Timer.ExceptionHandler exceptionHandler) {
        this.structure = structure;
        this.tickNanos = tickNanos;
        this.slots = slots;
        this.layout = layout.clone();
        this.queueFactory = queueFactory;
        this.clock = clock;
        this.executor = executor;
        this.threadFactory = threadFactory;
        this.maxPending = maxPending;
        this.exceptionHandler = exceptionHandler;
    }

    TimerQueue<?> newQueue() {
        long start = clock.nanoTime();
        if (queueFactory != null) {
            TimerQueue<?> queue = queueFactory.apply(start);
            if (queue == null || !queue.isEmpty()) {
                throw new IllegalArgumentException("the queue factory must return a new, empty queue: " + queue);
            }
            return queue;
        }
        switch (structure) {
            case SIMPLE_WHEEL:
                return TimerQueues.simpleWheel(
                        start, tickNanos, slots == 0 ? TimerQueues.DEFAULT_SIMPLE_WHEEL_SLOTS : slots);
            case HASHED_WHEEL:
                return TimerQueues.hashedWheel(
                        start, tickNanos, slots == 0 ? TimerQueues.DEFAULT_HASHED_WHEEL_SLOTS : slots);
            case SORTED_HASHED_WHEEL:
                return TimerQueues.sortedHashedWheel(
                        start, tickNanos, slots == 0 ? TimerQueues.DEFAULT_HASHED_WHEEL_SLOTS : slots);
            case HIERARCHICAL_WHEEL:
                return TimerQueues.hierarchicalWheel(start, tickNanos, layout[0], layout[1], layout[2]);
            default:
                return structure.newQueue(start, tickNanos);
        }
    }
}
