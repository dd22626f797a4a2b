package dev.hourglass.queue;

class UnsortedListQueueTest extends TimerQueueContractTest {
    @Override
    <T> TimerQueue<T> newQueue(long startTime) {
        return TimerQueues.unsortedList(startTime);
    }

    @Override
    WithinTickOrder order() {
        return WithinTickOrder.EXACT;
    }
}
