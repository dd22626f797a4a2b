package dev.hourglass.timer;

import dev.hourglass.queue.TimerHandle;
import dev.hourglass.queue.TimerQueue;
import java.util.function.Consumer;

/**
 * Files timeouts in a queue that cannot link them (the sorted structures, or a custom queue): each
 * timeout is the payload of an entry of the queue's own, whose deadline is where the timeout is
 * filed, at or before its own. A deadline beyond a bounded wheel's range is filed at the edge of
 * the range and moved on when it comes due. A periodic timeout re-armed during its delivery keeps
 * its entry; one re-armed later (after a run on an executor) gets a new one.
 *
 * <p>Complexity: the structure's. Thread-safety: none; the driver's thread only.
 */
final class HandleFiling implements Filing {

    private final TimerQueue<TimeoutNode> queue;
    private Consumer<TimeoutNode> sink;

    /** The entry being delivered, which the queue lets us re-arm. */
    private TimerHandle<TimeoutNode> delivering;

    private final Consumer<TimerHandle<TimeoutNode>> deliver = this::deliver;

    HandleFiling(TimerQueue<TimeoutNode> queue) {
        this.queue = queue;
    }

    private static WideTimeoutNode wide(TimeoutNode node) {
        return (WideTimeoutNode) node;
    }

    /** At or before the deadline: a bounded wheel holds a far one at the edge of its range. */
    private long place(TimeoutNode node) {
        long deadline = node.deadline();
        long horizon = queue.horizon();
        return deadline - horizon > 0 ? horizon : deadline;
    }

    @Override
    public void file(TimeoutNode node) {
        WideTimeoutNode wide = wide(node);
        TimerHandle<TimeoutNode> handle = wide.handle;
        if (handle != null && handle == delivering) {
            queue.reschedule(handle, place(node));
        } else {
            wide.handle = queue.schedule(place(node), node);
        }
    }

    @Override
    public void refile(TimeoutNode node) {
        TimerHandle<TimeoutNode> handle = wide(node).handle;
        long at = place(node);
        if (at != handle.deadline()) {
            queue.reschedule(handle, at);
        }
    }

    @Override
    public boolean unfile(TimeoutNode node) {
        TimerHandle<TimeoutNode> handle = wide(node).handle;
        return handle != null && queue.cancel(handle);
    }

    @Override
    public boolean isFiled(TimeoutNode node) {
        TimerHandle<TimeoutNode> handle = wide(node).handle;
        return handle != null && handle.isPending();
    }

    @Override
    public void poll(long now, Consumer<TimeoutNode> sink) {
        this.sink = sink;
        queue.poll(now, deliver, Integer.MAX_VALUE);
    }

    private void deliver(TimerHandle<TimeoutNode> handle) {
        delivering = handle;
        try {
            sink.accept(handle.payload());
        } finally {
            delivering = null;
        }
    }

    @Override
    public void clear(Consumer<TimeoutNode> sink) {
        queue.clear(handle -> sink.accept(handle.payload()));
    }

    @Override
    public long nextWork() {
        return queue.nextDeadline();
    }

    @Override
    public TimerQueue<?> queue() {
        return queue;
    }
}
