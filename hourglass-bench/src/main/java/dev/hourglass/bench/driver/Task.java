package dev.hourglass.bench.driver;

/**
 * What the benchmarks schedule: a {@link Runnable} that is also Netty's {@code TimerTask}, so that
 * no adapter wraps a task on the hot path.
 *
 * <p>Complexity: that of {@link #run()}. Ordering: not applicable. Thread-safety: that of the
 * subclass.
 */
abstract class Task implements Runnable, io.netty.util.TimerTask {

    /** A task that does nothing, for timeouts that are not meant to fire. */
    static final Task NOTHING = new Task() {
        @Override
        public void run() {}
    };

    @Override
    public final void run(io.netty.util.Timeout timeout) {
        run();
    }
}
