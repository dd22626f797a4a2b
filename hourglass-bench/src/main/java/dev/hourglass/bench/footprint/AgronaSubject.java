package dev.hourglass.bench.footprint;

import java.util.concurrent.TimeUnit;
import org.agrona.DeadlineTimerWheel;

/**
 * Agrona's {@link DeadlineTimerWheel} as the queue benchmarks configure it: 2^16 spokes of 2^20 ns.
 * It stores one long per timer cell and gives every spoke the capacity of the fullest one.
 *
 * <p>Complexity: Agrona's. Ordering: n/a. Thread-safety: one thread.
 */
final class AgronaSubject implements Subject {

    private final long[] ids;
    private DeadlineTimerWheel wheel;

    AgronaSubject(int capacity) {
        this.ids = new long[capacity];
    }

    @Override
    public void open() {
        wheel = new DeadlineTimerWheel(TimeUnit.NANOSECONDS, 0, 1L << 20, 1 << 16);
    }

    @Override
    public void schedule(int index, long delayNanos) {
        ids[index] = wheel.scheduleTimer(delayNanos);
    }

    @Override
    public void cancel(int index) {
        wheel.cancelTimer(ids[index]);
    }

    @Override
    public Object root() {
        return wheel;
    }

    @Override
    public void close() {
        wheel = null;
    }
}
