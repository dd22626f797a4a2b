package dev.hourglass.bench.driver;

import dev.hourglass.loop.EventLoop;
import dev.hourglass.timer.Timeout;
import dev.hourglass.timer.Timers;
import io.netty.channel.IoEventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Request timeouts scheduled and cancelled on an I/O event loop's own thread, the seeds' first
 * driver: Hourglass's {@link EventLoop} (default settings) beside a Netty 4.2 NIO event loop's
 * {@code schedule}. {@code n} timeouts of 60 s stay pending; each operation schedules a new one and
 * cancels the oldest, both on the loop thread, where both libraries do the work at once (Netty
 * removes a cancelled task from its heap when the cancel comes from the loop thread).
 *
 * <p>Result: ns per pair. The benchmark thread hands the loop {@link #BATCH} pairs at a time and
 * waits, so the time is the loop thread's, and the hand-off (one per batch) adds the same small
 * amount to both.
 *
 * <p>Complexity, ordering: not applicable. Thread-safety: one benchmark thread and the loop thread.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class LoopScheduleBenchmark {

    /** Pairs per hand-off to the loop. */
    static final int BATCH = 10_000;

    private static final long TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(60);

    /** The loop: {@code HOURGLASS_EVENT_LOOP} or {@code NETTY_NIO_EVENT_LOOP}. */
    @Param({"HOURGLASS_EVENT_LOOP", "NETTY_NIO_EVENT_LOOP"})
    public String impl;

    /** Pending timeouts. */
    @Param({"10000", "1000000"})
    public int n;

    private Loop loop;
    private Object[] pending;
    private int oldest;
    private Runnable batch;

    /** Makes the benchmark; JMH calls it. */
    public LoopScheduleBenchmark() {}

    /** Opens the loop and schedules the pending timeouts on its thread. */
    @Setup(Level.Trial)
    public void open() {
        if (n < 1) {
            throw new IllegalArgumentException("n must be positive: " + n);
        }
        loop = Loop.open(impl);
        pending = new Object[n];
        onLoop(() -> {
            for (int i = 0; i < n; i++) {
                pending[i] = loop.schedule(TIMEOUT_NANOS);
            }
        });
        batch = () -> {
            int i = oldest;
            for (int k = 0; k < BATCH; k++) {
                Object handle = loop.schedule(TIMEOUT_NANOS);
                loop.cancel(pending[i]);
                pending[i] = handle;
                i = i + 1 == n ? 0 : i + 1;
            }
            oldest = i;
        };
    }

    /** Stops the loop. */
    @TearDown(Level.Trial)
    public void close() {
        loop.close();
    }

    /** Schedules {@link #BATCH} new timeouts and cancels as many old ones, on the loop thread. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void scheduleAndCancel() {
        onLoop(batch);
    }

    private void onLoop(Runnable work) {
        CompletableFuture.runAsync(work, loop.executor()).join();
    }

    /** One event loop under test; schedule and cancel are called on its own thread only. */
    private interface Loop {

        Runnable NOTHING = () -> {};

        Executor executor();

        Object schedule(long delayNanos);

        void cancel(Object handle);

        void close();

        static Loop open(String impl) {
            switch (impl) {
                case "HOURGLASS_EVENT_LOOP":
                    return hourglass();
                case "NETTY_NIO_EVENT_LOOP":
                    return netty();
                default:
                    throw new IllegalArgumentException("impl names no event loop: " + impl);
            }
        }

        private static Loop hourglass() {
            EventLoop loop = EventLoop.open(Timers.builder());
            loop.start();
            return new Loop() {
                @Override
                public Executor executor() {
                    return loop;
                }

                @Override
                public Object schedule(long delayNanos) {
                    return loop.schedule(NOTHING, delayNanos, TimeUnit.NANOSECONDS);
                }

                @Override
                public void cancel(Object handle) {
                    ((Timeout) handle).cancel();
                }

                @Override
                public void close() {
                    loop.close();
                }
            };
        }

        private static Loop netty() {
            IoEventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
            io.netty.channel.EventLoop loop = (io.netty.channel.EventLoop) group.next();
            return new Loop() {
                @Override
                public Executor executor() {
                    return loop;
                }

                @Override
                public Object schedule(long delayNanos) {
                    return loop.schedule(NOTHING, delayNanos, TimeUnit.NANOSECONDS);
                }

                @Override
                public void cancel(Object handle) {
                    ((ScheduledFuture<?>) handle).cancel(false);
                }

                @Override
                public void close() {
                    group.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
                }
            };
        }
    }
}
