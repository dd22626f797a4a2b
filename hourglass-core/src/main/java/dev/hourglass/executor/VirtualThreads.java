package dev.hourglass.executor;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * Finds {@code Executors.newVirtualThreadPerTaskExecutor()} by reflection: the core is compiled for
 * Java 17, where it does not exist.
 *
 * <p>Complexity: O(1). Thread-safety: safe from any thread.
 */
final class VirtualThreads {

    private VirtualThreads() {}

    /**
     * Returns what makes a new executor that starts a virtual thread per task.
     *
     * @throws UnsupportedOperationException if this Java has no virtual threads
     */
    static Supplier<ExecutorService> perTaskExecutors() {
        Method factory;
        try {
            factory = Executors.class.getMethod("newVirtualThreadPerTaskExecutor");
        } catch (NoSuchMethodException e) {
            throw unsupported(e);
        }
        Supplier<ExecutorService> executors = () -> {
            try {
                return (ExecutorService) factory.invoke(null);
            } catch (InvocationTargetException e) {
                // Java 19 and 20 have the method, but only with --enable-preview.
                throw unsupported(e.getCause());
            } catch (IllegalAccessException e) {
                throw unsupported(e);
            }
        };
        // Java 19 and 20 fail only when called: try once, so that the builder fails at once.
        executors.get().shutdown();
        return executors;
    }

    private static UnsupportedOperationException unsupported(Throwable cause) {
        return new UnsupportedOperationException(
                "one virtual thread per task needs Java 21 or later; this is Java " + Runtime.version(), cause);
    }
}
