package dev.hourglass.executor;

import java.util.concurrent.Callable;

/**
 * A command as the {@link Callable} a task's future runs, its result null. {@code
 * Executors.callable(command)} does the same with a second field for the result, so this one is
 * 8 bytes smaller, on every task made from a {@link Runnable}.
 *
 * <p>Complexity: O(1). Ordering: not applicable. Thread-safety: immutable.
 */
final class RunnableCall implements Callable<Object> {

    private final Runnable command;

    RunnableCall(Runnable command) {
        this.command = command;
    }

    @Override
    public Object call() {
        command.run();
        return null;
    }

    @Override
    public String toString() {
        return command.toString();
    }
}
