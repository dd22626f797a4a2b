package dev.hourglass.bench;

import dev.hourglass.bench.queue.BenchQueues;
import java.util.List;
import java.util.Map;

/**
 * The shootout's workloads, queue level first, then driver level.
 *
 * <p>Complexity: O(1). Ordering: report order. Thread-safety: immutable.
 */
final class Workloads {

    /** Prefix of the queue-level benchmark classes. */
    private static final String QUEUE = "dev.hourglass.bench.queue.";

    /** Prefix of the driver-level benchmark classes. */
    private static final String DRIVER = "dev.hourglass.bench.driver.";

    /** The sizes of a sweep in a published run: a point per decade, 1e3 to 1e6. */
    static final List<String> SWEEP = List.of("1000", "10000", "100000", "1000000");

    /** The sizes of a quick run, which must take minutes: the two the complexity check compares. */
    private static final List<String> QUICK_SWEEP = List.of("10000", "1000000");

    private static final List<String> K = List.of("10");
    private static final String N = "n";
    private static final List<String> DRIVER_ANCHORS =
            List.of("NETTY_HASHED_WHEEL", "KAFKA_SYSTEM_TIMER", "JDK_STPE_REMOVE_ON_CANCEL", "JDK_STPE_KEEP_CANCELLED");

    private Workloads() {}

    /**
     * Returns every workload.
     *
     * @return the workloads, in report order
     */
    static List<Workload> all() {
        return List.of(
                new Workload(
                        "queue-heartbeat",
                        "Heartbeat (queue level)",
                        Workload.Level.QUEUE,
                        QUEUE + "HeartbeatBenchmark",
                        "heartbeat",
                        Map.of(N, QUICK_SWEEP, "k", K),
                        Map.of(N, SWEEP, "k", K),
                        List.of(BenchQueues.AGRONA),
                        "ns per operation",
                        false,
                        "About N live connections; each lives through 1 schedule, K reschedules to now + 30 s and"
                                + " 1 cancel; one operation every 10 simulated µs, polled every tick; nothing fires.",
                        N),
                new Workload(
                        "queue-request",
                        "Request timeouts (queue level)",
                        Workload.Level.QUEUE,
                        QUEUE + "RequestTimeoutBenchmark",
                        "requestTimeouts",
                        Map.of(N, QUICK_SWEEP),
                        Map.of(N, SWEEP),
                        List.of(BenchQueues.AGRONA),
                        "ns per pair (cancel + schedule)",
                        false,
                        "N pending requests with timeouts of 2 to 4 s; each pair cancels the oldest and schedules"
                                + " a new one; one pair every simulated µs, polled every tick; nothing fires.",
                        N),
                new Workload(
                        "queue-fire-one-tick",
                        "Fire-heavy, all due in one tick (queue level)",
                        Workload.Level.QUEUE,
                        QUEUE + "FireOneTickBenchmark",
                        "fire",
                        Map.of(N, QUICK_SWEEP),
                        Map.of(N, SWEEP),
                        List.of(BenchQueues.AGRONA),
                        "ns per fired timer",
                        true,
                        "N timers due within one tick, delivered by one poll.",
                        N),
                new Workload(
                        "queue-fire-spread",
                        "Fire-heavy, spread over one second (queue level)",
                        Workload.Level.QUEUE,
                        QUEUE + "FireSpreadBenchmark",
                        "fire",
                        Map.of(N, QUICK_SWEEP),
                        Map.of(N, SWEEP),
                        List.of(BenchQueues.AGRONA),
                        "ns per fired timer",
                        true,
                        "N timers due at random within one second, scheduled in random order, polled tick by"
                                + " tick.",
                        N),
                new Workload(
                        "driver-heartbeat",
                        "Heartbeat (driver level)",
                        Workload.Level.DRIVER,
                        DRIVER + "DriverHeartbeatBenchmark",
                        "heartbeat",
                        Map.of(N, QUICK_SWEEP, "k", K),
                        Map.of(N, SWEEP, "k", K),
                        DRIVER_ANCHORS,
                        "ns per operation",
                        false,
                        "Heartbeats through the thread-safe timers: Timeout.reschedule, or cancel plus a new"
                                + " timeout where a timer has no reschedule.",
                        N),
                new Workload(
                        "driver-request",
                        "Request timeouts (driver level)",
                        Workload.Level.DRIVER,
                        DRIVER + "DriverRequestTimeoutBenchmark",
                        "scheduleAndCancel",
                        Map.of(N, QUICK_SWEEP),
                        Map.of(N, SWEEP),
                        DRIVER_ANCHORS,
                        "ns per pair (schedule + cancel)",
                        false,
                        "Schedule plus cancel through the thread-safe timers with N timeouts pending.",
                        N),
                new Workload(
                        "driver-fire",
                        "Fire-heavy (driver level)",
                        Workload.Level.DRIVER,
                        DRIVER + "DriverFireBenchmark",
                        "dueAtOnce",
                        Map.of(N, List.of("100000")),
                        Map.of(N, List.of("10000", "100000", "1000000")),
                        DRIVER_ANCHORS,
                        "ns per fired timer",
                        true,
                        "N timeouts due at once, run by the timers' own threads: wall time from the deadline"
                                + " until the last has run, per timer (a wheel may wait up to one tick for its"
                                + " boundary).",
                        N),
                new Workload(
                        "driver-contention",
                        "Contention (driver level)",
                        Workload.Level.DRIVER,
                        DRIVER + "DriverContentionBenchmark",
                        "scheduleAndCancel",
                        Map.of("threads", List.of("1", "2"), N, List.of("10000")),
                        Map.of("threads", List.of("1", "2", "4"), N, List.of("10000")),
                        DRIVER_ANCHORS,
                        "ns per pair (schedule + cancel) as each producer sees it",
                        false,
                        "Several producer threads scheduling and cancelling at once, each keeping 1,024 requests"
                                + " pending, with N background timeouts.",
                        "threads"));
    }
}
