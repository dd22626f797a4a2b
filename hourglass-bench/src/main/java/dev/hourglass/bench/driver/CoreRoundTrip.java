package dev.hourglass.bench.driver;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * How long a value takes to go from one thread to another and back: the cost of moving cache lines
 * between two cores, which every cross-thread timer pays on each hand-off. On the 2-core VMs of
 * this project it is not a constant: a ping-pong between two threads ran about 540 ns a round trip
 * for minutes at a time and about 100 ns at other times, and in one check of 16 one-fork runs the
 * request-timeout benchmark's slow forks at 10,000 pending fell in the slow periods
 * (docs/driver-targets.md, run P). So the driver benchmarks time it after every iteration ({@link
 * WorkerMeter}), as a hint of the machine's state. A hint only: any thread that competes for the
 * cores meanwhile (a collector's, a compiler's, a timer's) lengthens it too.
 *
 * <p>Two slots 256 bytes apart in one array, so that each direction has a line of its own (a shared
 * line moves once per direction instead of twice and measures something else).
 *
 * <p>Complexity: O(trips). Thread-safety: each call uses its own slots and partner thread.
 */
final class CoreRoundTrip {

    private static final int PING = 16;
    private static final int PONG = 48;

    /** Round trips between two readings of the clock, which costs about a fifth of a fast trip. */
    static final int CHECK_EVERY = 64;

    private CoreRoundTrip() {}

    /**
     * Bounces a counter up to {@code trips} times between this thread and a partner started for the
     * purpose, stopping at the first look at the clock (every {@link #CHECK_EVERY} trips) after
     * {@code limitNanos}, and returns the mean nanoseconds of the round trips made, at least one;
     * the partner ends before it returns.
     *
     * @param trips most round trips to time, at least 1
     * @param limitNanos how long to keep timing, above 0
     * @return mean nanoseconds per round trip
     */
    static double nanos(int trips, long limitNanos) {
        if (trips < 1) {
            throw new IllegalArgumentException("trips must be positive: " + trips);
        }
        if (limitNanos <= 0) {
            throw new IllegalArgumentException("limitNanos must be positive: " + limitNanos);
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
        long done = 0;
        while (done == 0 || done < trips && (done % CHECK_EVERY != 0 || System.nanoTime() - start <= limitNanos)) {
            bounce(slots, done + 2);
            done++;
        }
        double nanos = (System.nanoTime() - start) / (double) done;
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
