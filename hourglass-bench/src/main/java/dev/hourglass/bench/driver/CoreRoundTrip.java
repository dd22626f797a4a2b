package dev.hourglass.bench.driver;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * How long a value takes to go from one thread to another and back: the cost of moving cache lines
 * between two cores, which every cross-thread timer pays on each hand-off. On the 2-core VMs of
 * this project it is not a constant: a ping-pong between two threads ran about 100 ns a round trip
 * for minutes, then about 540 ns for minutes, and the driver benchmarks' slow forks (their "dear
 * mode") fell in the slow periods (docs/driver-targets.md, run P). So each measured iteration
 * records it ({@link WorkerCpu#coreRoundTripNanos}), to tell which state of the machine a figure
 * comes from.
 *
 * <p>Two slots 256 bytes apart in one array, so that each direction has a line of its own (a shared
 * line moves once per direction instead of twice and measures something else).
 *
 * <p>Complexity: O(trips). Thread-safety: each call uses its own slots and partner thread.
 */
final class CoreRoundTrip {

    private static final int PING = 16;
    private static final int PONG = 48;

    private CoreRoundTrip() {}

    /**
     * Bounces a counter {@code trips} times between this thread and a partner started for the
     * purpose, and returns the mean nanoseconds of a round trip; the partner ends before it returns.
     *
     * @param trips round trips to time, at least 1
     * @return mean nanoseconds per round trip
     */
    static double nanos(int trips) {
        if (trips < 1) {
            throw new IllegalArgumentException("trips must be positive: " + trips);
        }
        AtomicLongArray slots = new AtomicLongArray(64);
        Thread partner = new Thread(
                () -> {
                    for (long seen = 0; seen >= 0; ) {
                        long v = slots.get(PING);
                        if (v != seen) {
                            seen = v;
                            slots.lazySet(PONG, v);
                        } else {
                            Thread.onSpinWait();
                        }
                    }
                },
                "core-round-trip");
        partner.setDaemon(true);
        partner.start();
        // A first trip waits for the partner to start; it is not timed.
        bounce(slots, 1);
        long start = System.nanoTime();
        for (long i = 2; i <= trips + 1; i++) {
            bounce(slots, i);
        }
        double nanos = (System.nanoTime() - start) / (double) trips;
        slots.lazySet(PING, -1);
        try {
            partner.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return nanos;
    }

    private static void bounce(AtomicLongArray slots, long value) {
        slots.lazySet(PING, value);
        while (slots.get(PONG) != value) {
            Thread.onSpinWait();
        }
    }
}
