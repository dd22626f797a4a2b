package dev.hourglass.bench.queue;

import dev.hourglass.queue.TimerHandle;
import dev.hourglass.queue.TimerQueue;
import dev.hourglass.queue.TimerStructure;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What a driver's turns cost a wheel that holds many far timers: N timers a day or two out (a
 * daily period, re-armed when they fire) and a trickle of short timeouts. {@link #turn}: one turn
 * of a busy driver, 0.5 ms of simulated time (2,000 turns a second), scheduling one timeout 10 ms
 * out, asking the next deadline and polling. {@link #wakeAfterLull}: a driver waking after a quiet
 * second: the poll that catches up over the second, one new 10 ms timeout and the next deadline.
 * Each at a 0.1 ms tick (the proposed default) and at 1 ms.
 *
 * <p>How: a simulated clock, one queue per trial, filled in deadline order as a daily timer's
 * arrivals would be. The trickle's timers fire on later turns, so a turn also delivers about one.
 *
 * <p>Complexity: what the wheel pays per tick passed and per next-deadline search with N far
 * timers: a wheel that looks at far timers on the way pays O(N / slots) or O(N) per turn.
 * Ordering: n/a. Thread-safety: one JMH thread per state.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 3,
        jvmArgsAppend = {"-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch"})
public class WheelTurnBenchmark {

    private static final long DAY_NANOS = TimeUnit.DAYS.toNanos(1);
    private static final long TURN_NANOS = TimeUnit.MICROSECONDS.toNanos(500);
    private static final long LULL_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long TIMEOUT_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    /** The payload of the trickle's timeouts; the far timers carry their index. */
    private static final Integer TRICKLE = -1;

    @Param({"HASHED_WHEEL", "SORTED_HASHED_WHEEL", "HIERARCHICAL_WHEEL"})
    String impl;

    @Param({"100000", "1000000"})
    long tickNanos;

    @Param({"10000", "1000000"})
    int n;

    private TimerQueue<Integer> queue;
    private Consumer<TimerHandle<Integer>> fire;
    private long now;
    private long fired;

    /** Creates the state; JMH calls it. */
    public WheelTurnBenchmark() {}

    /** Fills a new wheel with N far timers, a day to two days out, in deadline order. */
    @Setup(Level.Trial)
    public void fill() {
        now = 0;
        fired = 0;
        queue = TimerStructure.valueOf(impl).newQueue(now, tickNanos);
        TimerQueue<Integer> q = queue;
        fire = h -> {
            fired++;
            if (h.payload() >= 0) {
                q.reschedule(h, h.deadline() + DAY_NANOS);
            }
        };
        long spacing = DAY_NANOS / n;
        for (int i = 0; i < n; i++) {
            queue.schedule(DAY_NANOS + i * spacing, i);
        }
    }

    /**
     * One turn of a busy driver: 0.5 ms later, a new 10 ms timeout, the next deadline, a poll.
     *
     * @return the next deadline, so the work is not dead code
     */
    @Benchmark
    public long turn() {
        now += TURN_NANOS;
        return turn(now);
    }

    /**
     * A driver waking after a quiet second: the catch-up poll, a new 10 ms timeout, the next
     * deadline.
     *
     * @return the next deadline, so the work is not dead code
     */
    @Benchmark
    public long wakeAfterLull() {
        now += LULL_NANOS;
        return turn(now);
    }

    private long turn(long at) {
        TimerQueue<Integer> q = queue;
        q.poll(at, fire, Integer.MAX_VALUE);
        q.schedule(at + TIMEOUT_NANOS, TRICKLE);
        return q.nextDeadline() + fired;
    }
}
