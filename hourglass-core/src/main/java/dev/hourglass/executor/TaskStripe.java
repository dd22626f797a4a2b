package dev.hourglass.executor;

import java.util.List;

/**
 * One stripe of an executor's unfinished tasks and their count: an array of slots, each task
 * knowing its own. Unlinking a task writes its slot only (a doubly-linked list wrote both
 * neighbours, two cache misses at a million pending), and the slot it frees is the next one taken,
 * still in cache. The array grows by doubling and halves once under a quarter full, so a stripe
 * holds about two slots per task at most; between two resizings, linking allocates nothing.
 *
 * <p>Complexity: add and remove O(1) amortized; copy O(slots). Ordering: none promised.
 *
 * <p>Thread-safety: none of its own; every method is called holding this stripe's monitor, which
 * also guards the tasks' {@code slot} fields.
 */
final class TaskStripe {

    private static final int MIN_SLOTS = 16;

    /** The tasks; the free slots below {@link #end} are null and listed in {@link #free}. */
    private ScheduledTask<?>[] slots = new ScheduledTask<?>[MIN_SLOTS];

    /** The free slots below {@link #end}, as a stack: the slot freed last is taken first. */
    private int[] free = new int[MIN_SLOTS];

    private int freeCount;
    /** The slots above this one were never used since the last resizing. */
    private int end;

    private int count;

    /** Links a task that is in no stripe. */
    void add(ScheduledTask<?> task) {
        int slot;
        if (freeCount > 0) {
            slot = free[--freeCount];
        } else {
            if (end == slots.length) {
                resize(slots.length << 1);
            }
            slot = end++;
        }
        slots[slot] = task;
        task.slot = slot;
        count++;
    }

    /** Unlinks a task this stripe holds. */
    void remove(ScheduledTask<?> task) {
        int slot = task.slot;
        slots[slot] = null;
        free[freeCount++] = slot;
        count--;
        if (count < slots.length >> 2 && slots.length > MIN_SLOTS) {
            resize(slots.length >> 1);
        }
    }

    /** The tasks linked now. */
    int count() {
        return count;
    }

    /** Adds the tasks linked now to {@code out}. */
    void copyTo(List<ScheduledTask<?>> out) {
        for (int i = 0; i < end; i++) {
            ScheduledTask<?> task = slots[i];
            if (task != null) {
                out.add(task);
            }
        }
    }

    /** Moves the tasks to the first slots of a new array of {@code length}, above the count. */
    private void resize(int length) {
        ScheduledTask<?>[] moved = new ScheduledTask<?>[length];
        int next = 0;
        for (int i = 0; i < end; i++) {
            ScheduledTask<?> task = slots[i];
            if (task != null) {
                moved[next] = task;
                task.slot = next++;
            }
        }
        slots = moved;
        free = new int[length];
        freeCount = 0;
        end = next;
    }
}
