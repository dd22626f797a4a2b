package dev.hourglass.timer;

import dev.hourglass.queue.TimerQueue;

/**
 * A one-shot {@link TimeoutNode} whose task is told when it is cancelled: a {@link TimerTask} that
 * overrides {@link TimerTask#cancelled}. Its own class, not a field, says so, so that the node stays
 * at 48 bytes and the driver need not read the task, by then long out of cache, on every cancel.
 * {@link #hearsCancel} tells, for every timeout made, whether its task listens.
 *
 * <p>Thread-safety: as {@link TimeoutNode}.
 */
final class NotifyingTimeoutNode extends TimeoutNode {

    /** Per class, looked up once: whether it overrides {@link TimerTask#cancelled}. */
    private static final ClassValue<Boolean> OVERRIDES_CANCELLED = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            try {
                return type.getMethod("cancelled", Timeout.class).getDeclaringClass() != TimerTask.class;
            } catch (NoSuchMethodException e) {
                throw new IllegalStateException("a TimerTask without cancelled(Timeout): " + type, e);
            }
        }
    };

    NotifyingTimeoutNode(Handoff driver, TimerQueue<?> queue, Object task, long deadline, int state) {
        super(driver, queue, task, deadline, state);
    }

    /**
     * Whether {@code task} hears of a cancel: a {@link TimerTask} whose class overrides {@link
     * TimerTask#cancelled}; the default does nothing, so calling it would only read the task.
     */
    static boolean hearsCancel(Object task) {
        return task instanceof TimerTask && OVERRIDES_CANCELLED.get(task.getClass());
    }

    @Override
    boolean notifiesCancel() {
        return true;
    }
}
