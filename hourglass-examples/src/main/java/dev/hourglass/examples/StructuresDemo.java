package dev.hourglass.examples;

import dev.hourglass.queue.TimerHandle;
import dev.hourglass.queue.TimerQueue;
import dev.hourglass.queue.TimerStructure;
import dev.hourglass.time.NanoClock;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * Fires the same timers on every structure under the system clock, the way the articles' event
 * loop does: sleep until the nearest deadline, then expire what is due. It prints, per structure,
 * how many timers fired and how late: lateness is the time a timer was seen minus its deadline, so
 * a wheel shows up to one tick more than an exact structure.
 */
final class StructuresDemo {

    /** The options, after {@code usage: ./hourglass }. */
    static final String USAGE = "demo [--timers N] [--span-ms MS] [--tick-us US]\n"
            + "  schedule N timers (default 2000) spread over MS milliseconds (default 1000) on every\n"
            + "  structure, fire them under the system clock and print how late each structure fired;\n"
            + "  the wheels tick every US microseconds (default 1000)";

    private StructuresDemo() {}

    static int run(String[] args, PrintStream out, PrintStream err) {
        int timers = 2_000;
        long spanMillis = 1_000;
        long tickMicros = 1_000;
        try {
            for (int i = 0; i < args.length; i++) {
                String option = args[i];
                if (!List.of("--timers", "--span-ms", "--tick-us").contains(option)) {
                    throw new IllegalArgumentException(
                            (option.startsWith("-") ? "unknown option: " : "unexpected argument: ") + option);
                }
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException("option " + option + " needs a value");
                }
                int value = positive(option, args[++i]);
                switch (option) {
                    case "--timers":
                        timers = value;
                        break;
                    case "--span-ms":
                        spanMillis = value;
                        break;
                    default:
                        tickMicros = value;
                        break;
                }
            }
        } catch (IllegalArgumentException e) {
            err.println(e.getMessage());
            return Command.BAD_USAGE;
        }
        long tickNanos = tickMicros * 1_000;
        out.printf(
                "Hourglass demo: %,d timers spread over %,d ms on each structure, wheels ticking every %,d us%n%n",
                timers, spanMillis, tickMicros);
        out.printf(
                "%-20s %8s %12s %12s %12s %10s%n",
                "structure", "fired", "p50 late us", "p99 late us", "max late us", "early");
        NanoClock clock = NanoClock.system();
        // A short untimed round first, so that the table measures compiled code, not the JIT.
        for (TimerStructure structure : TimerStructure.values()) {
            fire(structure, clock, Math.min(timers, 500), 50_000_000, tickNanos);
        }
        boolean allFired = true;
        for (TimerStructure structure : TimerStructure.values()) {
            Result result = fire(structure, clock, timers, spanMillis * 1_000_000, tickNanos);
            allFired &= result.fired == timers && result.early == 0;
            out.printf(
                    "%-20s %8d %12.1f %12.1f %12.1f %10d%n",
                    structure.name().toLowerCase(java.util.Locale.ROOT),
                    result.fired,
                    result.percentile(0.50) / 1e3,
                    result.percentile(0.99) / 1e3,
                    result.percentile(1.0) / 1e3,
                    result.early);
        }
        out.println();
        out.println(allFired ? "every timer fired, none early" : "SOME TIMERS DID NOT FIRE OR FIRED EARLY");
        return allFired ? 0 : 1;
    }

    private static int positive(String option, String text) {
        long value;
        try {
            value = Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " must be a whole number: '" + text + "'", e);
        }
        if (value <= 0 || value > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(option + " must be between 1 and " + Integer.MAX_VALUE + ": " + value);
        }
        return (int) value;
    }

    private static Result fire(TimerStructure structure, NanoClock clock, int timers, long spanNanos, long tickNanos) {
        long start = clock.nanoTime();
        TimerQueue<Integer> queue = structure.newQueue(start, tickNanos);
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < timers; i++) {
            queue.schedule(start + random.nextLong(spanNanos), i);
        }
        Result result = new Result(timers);
        while (!queue.isEmpty()) {
            long wait = queue.nextDeadline() - clock.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
            long now = clock.nanoTime();
            queue.poll(now, handle -> result.record(handle, now), Integer.MAX_VALUE);
        }
        return result;
    }

    private static final class Result {
        final long[] lateness;
        int fired;
        int early;

        Result(int timers) {
            lateness = new long[timers];
        }

        void record(TimerHandle<Integer> handle, long now) {
            long late = now - handle.deadline();
            if (late < 0) {
                early++;
            }
            lateness[fired++] = late;
        }

        double percentile(double p) {
            if (fired == 0) {
                return Double.NaN;
            }
            long[] sorted = Arrays.copyOf(lateness, fired);
            Arrays.sort(sorted);
            return sorted[(int) Math.min(fired - 1, Math.ceil(p * fired) - 1)];
        }
    }
}
