package dev.hourglass.bench.footprint;

import dev.hourglass.queue.TimerHandle;
import dev.hourglass.queue.TimerQueue;
import dev.hourglass.queue.TimerStructure;

/**
 * An Hourglass structure with a 2^20 ns tick for the wheels, every timer carrying one shared payload.
 *
 * <p>Complexity: the structure's. Ordering: n/a. Thread-safety: one thread.
 */
final class HourglassSubject implements Subject {

    private static final Object PAYLOAD = new Object();

    private final TimerStructure structure;
    private final TimerHandle<?>[] handles;
    private TimerQueue<Object> queue;

    HourglassSubject(TimerStructure structure, int capacity) {
        this.structure = structure;
        this.handles = new TimerHandle<?>[capacity];
    }

    @Override
    public void open() {
        queue = structure.newQueue(0, 1L << 20);
    }

    @Override
    public void schedule(int index, long delayNanos) {
        handles[index] = queue.schedule(delayNanos, PAYLOAD);
    }

    @Override
    @SuppressWarnings("unchecked")
    public void cancel(int index) {
        queue.cancel((TimerHandle<Object>) handles[index]);
        handles[index] = null;
    }

    @Override
    public Object root() {
        return queue;
    }

    @Override
    public void close() {
        queue = null;
    }
}
