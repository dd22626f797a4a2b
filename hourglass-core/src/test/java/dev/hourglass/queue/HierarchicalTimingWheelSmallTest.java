package dev.hourglass.queue;

/**
 * The contract on a tiny layout: a near wheel of 4 slots and 2 levels of 4 slots, a range of 64
 * ticks, so that the model's timers constantly cascade and pass through the overflow list.
 */
class HierarchicalTimingWheelSmallTest extends TimerQueueContractTest {
    @Override
    <T> TimerQueue<T> newQueue(long startTime) {
        return TimerQueues.hierarchicalWheel(startTime, 1_000, 2, 2, 2);
    }

    @Override
    WithinTickOrder order() {
        return WithinTickOrder.ANY;
    }
}
