package dev.hourglass.loop;

import java.util.ArrayDeque;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BooleanSupplier;

/**
 * The tasks handed to an {@link EventLoop} by {@link EventLoop#execute}: a queue under a lock taken
 * once per hand-off and once per turn, when the loop swaps it for an empty one and runs the batch.
 *
 * <p>Complexity: O(1) per task. Ordering: tasks run in the order they were handed over; those a
 * task hands over wait for the next turn. Thread-safety: {@link #add} from any thread, {@link
 * #runBatch} from the loop thread.
 */
final class LoopTasks {

    private static final System.Logger LOG = Selection.LOG;

    private final Object lock = new Object();
    private final BooleanSupplier closed;
    private ArrayDeque<Runnable> tasks = new ArrayDeque<>();

    /** Loop-only: the emptied batch, reused as the next queue. */
    private ArrayDeque<Runnable> spare = new ArrayDeque<>();

    LoopTasks(BooleanSupplier closed) {
        this.closed = closed;
    }

    void add(Runnable task) {
        synchronized (lock) {
            // Checked under the lock the loop's last batch takes: nothing accepted is left behind.
            if (closed.getAsBoolean()) {
                throw new RejectedExecutionException("event loop is closed");
            }
            tasks.add(task);
        }
    }

    /** Runs the tasks handed over before this call; an exception is logged and the rest run. */
    void runBatch() {
        ArrayDeque<Runnable> batch;
        synchronized (lock) {
            if (tasks.isEmpty()) {
                return;
            }
            batch = tasks;
            tasks = spare;
        }
        for (Runnable task = batch.poll(); task != null; task = batch.poll()) {
            try {
                task.run();
            } catch (Throwable e) {
                LOG.log(System.Logger.Level.WARNING, "task " + task + " threw", e);
            }
        }
        spare = batch;
    }
}
