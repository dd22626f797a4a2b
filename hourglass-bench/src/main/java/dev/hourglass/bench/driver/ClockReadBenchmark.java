package dev.hourglass.bench.driver;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The floor under any call that takes a delay: one reading of {@link System#nanoTime()}, the clock
 * every timer here reads (Hourglass's system clock, Netty's and the JDK's timers). A push-back by a
 * delay cannot cost less than this; {@code Timeout.rescheduleAt} lets callers share one reading
 * (see {@link DriverRescheduleBenchmark}).
 *
 * <p>Complexity, ordering: not applicable. Thread-safety: stateless.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class ClockReadBenchmark {

    /** Makes the benchmark; JMH calls it. */
    public ClockReadBenchmark() {}

    /**
     * Reads the clock once.
     *
     * @return the reading, so that it is not optimised away
     */
    @Benchmark
    public long nanoTime() {
        return System.nanoTime();
    }
}
