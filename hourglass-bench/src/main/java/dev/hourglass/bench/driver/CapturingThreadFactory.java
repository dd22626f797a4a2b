package dev.hourglass.bench.driver;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Makes daemon threads and remembers them, so that their CPU time can be read.
 *
 * <p>Complexity: O(1) per thread. Ordering: threads in creation order.
 *
 * <p>Thread-safety: safe from any thread.
 */
final class CapturingThreadFactory implements ThreadFactory {

    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    private final String name;
    private final List<Thread> threads = new CopyOnWriteArrayList<>();

    CapturingThreadFactory(String name) {
        this.name = name;
    }

    @Override
    public Thread newThread(Runnable task) {
        Thread thread = new Thread(task, name + "-" + SEQUENCE.incrementAndGet());
        thread.setDaemon(true);
        threads.add(thread);
        return thread;
    }

    List<Thread> threads() {
        return List.copyOf(threads);
    }
}
