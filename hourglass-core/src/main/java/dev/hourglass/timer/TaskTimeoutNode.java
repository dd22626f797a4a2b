package dev.hourglass.timer;

import dev.hourglass.queue.TimerQueue;

/**
 * A one-shot {@link TimeoutNode} whose task is a {@link TimerTask}, handed its timeout when it
 * runs. Its own class, not a field, says so (see {@link TaskKind}): the node stays at 48 bytes.
 *
 * <p>Thread-safety: as {@link TimeoutNode}.
 */
class TaskTimeoutNode extends TimeoutNode {

    TaskTimeoutNode(Handoff driver, TimerQueue<?> queue, Object task, long deadline, int state) {
        super(driver, queue, task, deadline, state);
    }

    @Override
    final void runTask() throws Exception {
        ((TimerTask) payload()).run(this);
    }
}
