package dev.hourglass.bench.queue;

import dev.hourglass.queue.TimerHandle;
import dev.hourglass.queue.TimerQueue;
import java.util.function.Consumer;

/**
 * A {@link BenchQueue} over an Hourglass {@link TimerQueue}; every timer carries one shared payload.
 *
 * <p>Complexity: the structure's. Ordering: the structure's. Thread-safety: none.
 */
final class HourglassBenchQueue implements BenchQueue {

    private static final Object PAYLOAD = new Object();

    private final TimerQueue<Object> queue;
    private final TimerHandle<Object>[] handles;
    private final Consumer<TimerHandle<Object>> onFire = this::fired;
    private int fired;

    @SuppressWarnings("unchecked")
    HourglassBenchQueue(TimerQueue<Object> queue, int capacity) {
        this.queue = queue;
        this.handles = (TimerHandle<Object>[]) new TimerHandle<?>[capacity];
    }

    @Override
    public void schedule(int slot, long deadline) {
        handles[slot] = queue.schedule(deadline, PAYLOAD);
    }

    @Override
    public void reschedule(int slot, long deadline) {
        queue.reschedule(handles[slot], deadline);
    }

    @Override
    public void cancel(int slot) {
        queue.cancel(handles[slot]);
        handles[slot] = null;
    }

    @Override
    public int pollAll(long now) {
        fired = 0;
        queue.poll(now, onFire, Integer.MAX_VALUE);
        return fired;
    }

    @Override
    public long size() {
        return queue.size();
    }

    private void fired(TimerHandle<Object> handle) {
        fired++;
    }
}
