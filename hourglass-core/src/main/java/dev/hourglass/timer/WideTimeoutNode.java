package dev.hourglass.timer;

import dev.hourglass.queue.TimerHandle;
import dev.hourglass.queue.TimerQueue;

/**
 * A {@link TimeoutNode} with the fields only some timeouts need, so that a one-shot on a structure
 * that links nodes stays at 48 bytes: the period of a periodic timeout, and the handle of the entry
 * that wraps the timeout in a structure that cannot link it (the sorted structures order nodes by a
 * deadline that a reschedule from another thread would change under them).
 *
 * <p>Thread-safety: {@link #handle} is the driver's; the period is final.
 */
final class WideTimeoutNode extends TimeoutNode {

    /** 0 for a one-shot; positive for a fixed rate; negative (minus the delay) for a fixed delay. */
    private final long period;

    /** What the task is (the narrow nodes' classes tell it); in what the rest leaves of 64 bytes. */
    private final TaskKind kind;

    /** Driver-only: the wrapping entry, null until first filed. */
    TimerHandle<TimeoutNode> handle;

    WideTimeoutNode(
            Handoff driver, TimerQueue<?> queue, Object task, long deadline, int state, long period, TaskKind kind) {
        super(driver, queue, task, deadline, state);
        this.period = period;
        this.kind = kind;
    }

    @Override
    long period() {
        return period;
    }

    @Override
    boolean notifiesCancel() {
        return kind.hearsCancel();
    }

    @Override
    void runTask() throws Exception {
        if (kind.handsTimeout()) {
            ((TimerTask) payload()).run(this);
        } else {
            ((Runnable) payload()).run();
        }
    }
}
