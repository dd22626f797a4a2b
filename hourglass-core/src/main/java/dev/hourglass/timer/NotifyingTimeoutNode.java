package dev.hourglass.timer;

import dev.hourglass.queue.TimerQueue;

/**
 * A one-shot {@link TimeoutNode} whose task is told when it is cancelled: a {@link TimerTask} that
 * overrides {@link TimerTask#cancelled}. Its own class, not a field, says so, so that the node stays
 * at 48 bytes and the driver need not read the task, by then long out of cache, on every cancel.
 *
 * <p>Thread-safety: as {@link TimeoutNode}.
 */
final class NotifyingTimeoutNode extends TaskTimeoutNode {

    NotifyingTimeoutNode(Handoff driver, TimerQueue<?> queue, Object task, long deadline, int state) {
        super(driver, queue, task, deadline, state);
    }

    @Override
    boolean notifiesCancel() {
        return true;
    }
}
