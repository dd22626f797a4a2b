package dev.hourglass.executor;

import java.util.List;

/**
 * One stripe of an executor's unfinished tasks: a doubly-linked list through the tasks' own link
 * fields, under this stripe's lock. Linking a task allocates nothing (a concurrent set allocated an
 * entry per task), and the tasks spread over several stripes so that threads seldom share a lock.
 *
 * <p>Complexity: add and remove O(1); copy O(tasks in the stripe). Ordering: none promised.
 *
 * <p>Thread-safety: every method from any thread; a task's link fields are guarded by its stripe.
 */
final class TaskStripe {

    private ScheduledTask<?> head;

    /** Links a task that is in no stripe. */
    synchronized void add(ScheduledTask<?> task) {
        task.nextInStripe = head;
        if (head != null) {
            head.previousInStripe = task;
        }
        head = task;
    }

    /** Unlinks a task this stripe holds. */
    synchronized void remove(ScheduledTask<?> task) {
        ScheduledTask<?> previous = task.previousInStripe;
        ScheduledTask<?> next = task.nextInStripe;
        if (previous == null) {
            head = next;
        } else {
            previous.nextInStripe = next;
        }
        if (next != null) {
            next.previousInStripe = previous;
        }
        task.previousInStripe = null;
        task.nextInStripe = null;
    }

    /** Adds the tasks linked now to {@code out}. */
    synchronized void copyTo(List<ScheduledTask<?>> out) {
        for (ScheduledTask<?> task = head; task != null; task = task.nextInStripe) {
            out.add(task);
        }
    }
}
