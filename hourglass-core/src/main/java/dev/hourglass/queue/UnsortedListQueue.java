package dev.hourglass.queue;

import java.util.function.Consumer;

/**
 * Timers in a doubly linked list in insertion order: the articles' first baseline (Varghese and
 * Lauck's scheme 1). Fast to change, slow to expire.
 *
 * <p>Complexity: schedule, cancel and reschedule O(1); next deadline O(n); each delivered timer
 * costs an O(n) scan.
 *
 * <p>Order: exact, by (deadline, insertion); the scan keeps the first of equal deadlines.
 *
 * <p>Thread-safety: none; confine to one thread.
 */
final class UnsortedListQueue<T> extends AbstractTimerQueue<T, LinkedEntry<T>> {

    private final Bucket<T> list = new Bucket<>(-1);

    UnsortedListQueue(long startTime) {
        super(startTime);
    }

    @Override
    LinkedEntry<T> newEntry(T payload, long deadline) {
        return new ListEntry<>(this, payload, deadline);
    }

    @Override
    void insert(LinkedEntry<T> entry) {
        list.append(entry);
    }

    @Override
    void remove(LinkedEntry<T> entry) {
        entry.unlink();
    }

    @Override
    int expire(long now, Consumer<? super TimerHandle<T>> consumer, int limit) {
        int count = 0;
        while (count < limit && !list.isEmpty()) {
            LinkedEntry<T> first = min();
            if (first.deadline - now > 0) {
                break;
            }
            first.unlink();
            deliver(first, consumer);
            count++;
        }
        return count;
    }

    @Override
    long earliest() {
        return min().deadline;
    }

    private LinkedEntry<T> min() {
        LinkedEntry<T> min = list.first();
        for (LinkedEntry<T> e = min.next; e != list; e = e.next) {
            if (before(e.deadline, min.deadline)) {
                min = e;
            }
        }
        return min;
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
