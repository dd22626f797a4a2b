package dev.hourglass.bench.map;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;

/**
 * Makes daemon threads for a map under test and remembers them, so that their CPU time can be read.
 *
 * <p>Complexity: O(1) per thread. Ordering: threads in creation order.
 *
 * <p>Thread-safety: safe from any thread.
 */
final class CapturingThreads implements ThreadFactory {

    private final String name;
    private final List<Thread> threads = new CopyOnWriteArrayList<>();

    CapturingThreads(String name) {
        this.name = name;
    }

    @Override
    public Thread newThread(Runnable task) {
        Thread thread = new Thread(task, name + "-" + threads.size());
        thread.setDaemon(true);
        threads.add(thread);
        return thread;
    }

    List<Thread> threads() {
        return List.copyOf(threads);
    }
}
