package dev.hourglass.queue;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The checks and bookkeeping every structure shares, so that each implementation holds only its
 * structure: argument validation (before any change, so a failed call changes nothing), handle
 * ownership, the size, the queue's time, the guard against nested polls and the re-arming of the
 * timer being delivered.
 *
 * @param <T> the payload type
 * @param <E> the structure's node type
 */
abstract class AbstractTimerQueue<T, E extends QueueEntry<T>> extends CacheLinePad implements TimerQueue<T> {

    /** The latest {@code now} given to poll, or the start time. */
    long time;

    int size;

    /** The timer handed to the consumer right now, which reschedule may re-arm. */
    private E delivering;

    private boolean busy;

    AbstractTimerQueue(long startTime) {
        this.time = startTime;
    }

    /** Makes a node; called after every argument was checked. */
    abstract E newEntry(T payload, long deadline);

    /** Links a node that is not pending, with {@code deadline} already set on it. */
    abstract void insert(E entry);

    /** Unlinks a pending node; after it the node is not pending. Size is kept by the caller. */
    abstract void remove(E entry);

    /** Rejects a deadline a bounded structure cannot hold; unbounded structures accept all. */
    void checkDeadline(long deadline) {}

    /**
     * Moves a pending node to a new deadline. The default removes and inserts it again; a structure
     * may do better.
     */
    void move(E entry, long deadline) {
        remove(entry);
        entry.deadline = deadline;
        insert(entry);
    }

    /** Delivers up to {@code limit} due timers through {@link #deliver}; time is already {@code now}. */
    abstract int expire(long now, Consumer<? super TimerHandle<T>> consumer, int limit);

    /**
     * Unlinks every node and leaves the structure empty, passing each node to {@code sink} once it
     * is no longer pending. It never calls user code.
     */
    abstract void removeAll(Consumer<? super E> sink);

    /** Returns the next delivery time of a non-empty queue. */
    abstract long earliest();

    /**
     * Returns when a driver should poll a non-empty queue next: {@link #earliest()} unless a
     * structure finds a cheaper time at or before it, no earlier than its next delivery or move of
     * timers inside the structure.
     */
    long earliestWork() {
        return earliest();
    }

    @Override
    public final TimerHandle<T> schedule(long deadline, T payload) {
        Objects.requireNonNull(payload, "payload");
        checkDeadline(deadline);
        if (size == Integer.MAX_VALUE) {
            throw new IllegalStateException("queue is full: size=" + size);
        }
        E entry = newEntry(payload, deadline);
        insert(entry);
        size++;
        return handle(entry);
    }

    /** Links a driver's node at its deadline; the node API's checks were made by the caller. */
    final void insertNode(E entry) {
        if (size == Integer.MAX_VALUE) {
            throw new IllegalStateException("queue is full: size=" + size);
        }
        insert(entry);
        size++;
    }

    /** Unlinks a driver's node if it is linked. */
    final boolean removeNode(E entry) {
        if (!entry.isPending()) {
            return false;
        }
        remove(entry);
        size--;
        return true;
    }

    /**
     * Places a linked driver's node again, at the deadline it holds now. It never writes the
     * deadline: another thread may move it later meanwhile, and writing back the value read here
     * would undo that move and run the timer early.
     */
    final void moveNode(E entry) {
        remove(entry);
        insert(entry);
    }

    /** Every entry users hold is a leaf that implements the handle; sentinels never leave. */
    @SuppressWarnings("unchecked")
    private TimerHandle<T> handle(E entry) {
        return (TimerHandle<T>) entry;
    }

    @Override
    public final boolean cancel(TimerHandle<T> handle) {
        E entry = own(handle);
        if (!entry.isPending()) {
            return false;
        }
        remove(entry);
        size--;
        return true;
    }

    @Override
    public final void reschedule(TimerHandle<T> handle, long deadline) {
        E entry = own(handle);
        checkDeadline(deadline);
        if (entry.isPending()) {
            move(entry, deadline);
        } else if (entry == delivering) {
            entry.deadline = deadline;
            insert(entry);
            size++;
        } else {
            throw new IllegalStateException(
                    "handle is stale (delivered, cancelled or cleared) and cannot be rescheduled: " + handle);
        }
    }

    @Override
    public final long nextDeadline() {
        return size == 0 ? time + Long.MAX_VALUE : earliest();
    }

    /** As {@link #nextDeadline()}, but the time of the next work of a poll; see {@link #earliestWork()}. */
    final long nextWork() {
        return size == 0 ? time + Long.MAX_VALUE : earliestWork();
    }

    @Override
    public final int poll(long now, Consumer<? super TimerHandle<T>> consumer, int limit) {
        Objects.requireNonNull(consumer, "consumer");
        if (limit < 0) {
            throw new IllegalArgumentException("limit must not be negative: " + limit);
        }
        if (now - time < 0) {
            throw new IllegalArgumentException("now must not be before the queue's time " + time + ": " + now);
        }
        enter();
        try {
            time = now;
            return expire(now, consumer, limit);
        } finally {
            busy = false;
        }
    }

    @Override
    public final int clear(Consumer<? super TimerHandle<T>> consumer) {
        Objects.requireNonNull(consumer, "consumer");
        enter();
        try {
            List<E> removed = new ArrayList<>(size);
            removeAll(removed::add);
            size = 0;
            // The structure is empty and consistent before user code runs, so the consumer may
            // schedule again. Every timer is handed over even if the consumer throws, so that a
            // driver's close loses none; the first exception is rethrown at the end.
            RuntimeException failure = null;
            @SuppressWarnings("unchecked")
            Consumer<Object> sink = (Consumer<Object>) consumer;
            for (E entry : removed) {
                try {
                    sink.accept(entry);
                } catch (RuntimeException e) {
                    if (failure == null) {
                        failure = e;
                    } else {
                        failure.addSuppressed(e);
                    }
                }
            }
            if (failure != null) {
                throw failure;
            }
            return removed.size();
        } finally {
            busy = false;
        }
    }

    /**
     * Hands a node that was just removed to the consumer; size is kept here. The node API polls
     * with a consumer of its own nodes, so the entry is passed without a cast to a handle.
     */
    @SuppressWarnings("unchecked")
    final void deliver(E entry, Consumer<? super TimerHandle<T>> consumer) {
        size--;
        delivering = entry;
        try {
            ((Consumer<Object>) consumer).accept(entry);
        } finally {
            delivering = null;
        }
    }

    @Override
    public final int size() {
        return size;
    }

    @Override
    public final long time() {
        return time;
    }

    @Override
    public long horizon() {
        return time + Long.MAX_VALUE;
    }

    @Override
    public long tick() {
        return 1;
    }

    /** True if deadline {@code a} is before deadline {@code b}, both read relative to the queue's time. */
    final boolean before(long a, long b) {
        return a - time < b - time;
    }

    private void enter() {
        if (busy) {
            throw new IllegalStateException("poll and clear cannot be called from inside a poll or clear");
        }
        busy = true;
    }

    @SuppressWarnings("unchecked")
    private E own(TimerHandle<T> handle) {
        Objects.requireNonNull(handle, "handle");
        if (!(handle instanceof QueueEntry) || ((QueueEntry<?>) handle).owner != this) {
            throw new IllegalArgumentException("handle belongs to another queue: " + handle);
        }
        return (E) handle;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[size=" + size + ", time=" + time + "]";
    }
}
