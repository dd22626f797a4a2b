package dev.hourglass.queue;

class SortedListQueueTest extends TimerQueueContractTest {
    @Override
    <T> TimerQueue<T> newQueue(long startTime) {
        return TimerQueues.sortedList(startTime);
    }

    @Override
    WithinTickOrder order() {
        return WithinTickOrder.EXACT;
    }
}
