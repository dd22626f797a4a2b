package dev.hourglass.queue;

import java.util.function.Consumer;

/**
 * Timers in a doubly linked list kept sorted by deadline: the articles' second baseline (Varghese
 * and Lauck's scheme 2). Slow to schedule, instant to expire.
 *
 * <p>Complexity: schedule and reschedule O(n), searching from the tail because new deadlines tend
 * to be the latest; cancel O(1); next deadline O(1); each delivered timer O(1).
 *
 * <p>Order: exact, by (deadline, insertion); a timer goes after every timer with an equal
 * deadline.
 *
 * <p>Thread-safety: none; confine to one thread.
 */
final class SortedListQueue<T> extends AbstractTimerQueue<T, LinkedEntry<T>> {

    private final Bucket<T> list = new Bucket<>(-1);

    SortedListQueue(long startTime) {
        super(startTime);
    }

    @Override
    LinkedEntry<T> newEntry(T payload, long deadline) {
        return new ListEntry<>(this, payload, deadline);
    }

    @Override
    void insert(LinkedEntry<T> entry) {
        list.insertSorted(entry, time);
    }

    @Override
    void remove(LinkedEntry<T> entry) {
        entry.unlink();
    }

    @Override
    int expire(long now, Consumer<? super TimerHandle<T>> consumer, int limit) {
        int count = 0;
        while (count < limit && !list.isEmpty() && list.first().deadline - now <= 0) {
            LinkedEntry<T> first = list.first();
            first.unlink();
            deliver(first, consumer);
            count++;
        }
        return count;
    }

    @Override
    long earliest() {
        return list.first().deadline;
    }

    @Override
    void removeAll(Consumer<? super LinkedEntry<T>> sink) {
        while (!list.isEmpty()) {
            LinkedEntry<T> e = list.first();
            e.unlink();
            sink.accept(e);
        }
    }
}
