package dev.hourglass.timer;

/**
 * What a scheduled task is, decided when it is scheduled, so that the driver never tests it: a
 * plain {@link Runnable}, a {@link TimerTask} (handed its timeout; a task that is both runs as a
 * {@code TimerTask}, whichever schedule method took it), or a {@code TimerTask} whose class
 * overrides {@link TimerTask#cancelled}. The node's class (or, for a {@link WideTimeoutNode}, a
 * field) keeps the answer.
 *
 * <p>Why not {@code instanceof} at each run: on Java 17 a failed {@code instanceof} against an
 * interface scans the class's list of interfaces every time (JDK-8180450, fixed in Java 23); with a
 * plain {@code Runnable} that scan cost the driver more than the rest of firing the timeout
 * ({@code docs/driver-targets.md}, run O). So the answer is kept per class ({@link #of}), and each
 * driver checks the class of its latest task first ({@link Cache}): a server schedules the same few
 * task classes over and over.
 *
 * <p>Complexity: O(1); the first task of a class pays a {@link ClassValue} computation. Ordering:
 * not applicable. Thread-safety: safe from any thread.
 */
enum TaskKind {
    RUNNABLE,
    TIMER_TASK,
    LISTENING_TIMER_TASK;

    private static final TaskKind[] KINDS = values();

    /**
     * The kind's ordinal per class. An {@code Integer}, not the kind itself: the value of a JDK
     * class's entry must not refer to this class loader, or it would keep it loaded forever.
     */
    private static final ClassValue<Integer> BY_CLASS = new ClassValue<>() {
        @Override
        protected Integer computeValue(Class<?> type) {
            if (!TimerTask.class.isAssignableFrom(type)) {
                return RUNNABLE.ordinal();
            }
            try {
                boolean overrides = type.getMethod("cancelled", Timeout.class).getDeclaringClass() != TimerTask.class;
                return (overrides ? LISTENING_TIMER_TASK : TIMER_TASK).ordinal();
            } catch (NoSuchMethodException e) {
                throw new IllegalStateException("a TimerTask without cancelled(Timeout): " + type, e);
            }
        }
    };

    /**
     * The kind of a task given to a schedule method.
     *
     * @param task a {@link Runnable} or a {@link TimerTask}, not null
     * @return its kind
     */
    static TaskKind of(Object task) {
        return KINDS[BY_CLASS.get(task.getClass())];
    }

    /** Whether the task is handed its timeout. */
    boolean handsTimeout() {
        return this != RUNNABLE;
    }

    /** Whether the task is told of a cancel. */
    boolean hearsCancel() {
        return this == LISTENING_TIMER_TASK;
    }

    /**
     * One driver's memory of its latest task class and kind, checked before {@link #of}. It keeps
     * that class reachable until another is scheduled or the driver is dropped.
     *
     * <p>Thread-safety: safe from any thread; the pair is immutable and written without a lock (a
     * racing writer only costs a lookup).
     */
    static final class Cache {

        private Seen last = new Seen(Object.class, RUNNABLE);

        private record Seen(Class<?> type, TaskKind kind) {}

        /**
         * The kind of a task given to a schedule method.
         *
         * @param task a {@link Runnable} or a {@link TimerTask}, not null
         * @return its kind
         */
        TaskKind of(Object task) {
            Class<?> type = task.getClass();
            Seen seen = last;
            if (seen.type == type) {
                return seen.kind;
            }
            TaskKind kind = TaskKind.of(task);
            last = new Seen(type, kind);
            return kind;
        }
    }
}
