package dev.hourglass.executor;

import java.util.List;

/**
 * One stripe of an executor's unfinished tasks and their count: a doubly-linked list through the
 * tasks' own link fields. Linking a task allocates nothing (a concurrent set allocated an entry per
 * task), and the tasks spread over several stripes so that threads seldom share a lock. (An array
 * of slots, each task knowing its own, was tried: at a million pending it cost the schedule and
 * cancel pair more CPU in {@code DriverRequestTimeoutBenchmark}, likely the collector's card mark
 * on each store of a young task into a large, old array; links mostly join young tasks.)
 *
 * <p>Complexity: add and remove O(1); copy O(tasks in the stripe). Ordering: none promised.
 *
 * <p>Thread-safety: none of its own; every method is called holding this stripe's monitor, which
 * also guards the tasks' link fields.
 */
final class TaskStripe {

    private ScheduledTask<?> head;
    private int count;

    /** Links a task that is in no stripe. */
    void add(ScheduledTask<?> task) {
        task.nextInStripe = head;
        if (head != null) {
            head.previousInStripe = task;
        }
        head = task;
        count++;
    }

    /** Unlinks a task this stripe holds. */
    void remove(ScheduledTask<?> task) {
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
        count--;
    }

    /** The tasks linked now. */
    int count() {
        return count;
    }

    /** Adds the tasks linked now to {@code out}. */
    void copyTo(List<ScheduledTask<?>> out) {
        for (ScheduledTask<?> task = head; task != null; task = task.nextInStripe) {
            out.add(task);
        }
    }
}
