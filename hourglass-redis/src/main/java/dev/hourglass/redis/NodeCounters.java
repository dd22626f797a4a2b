package dev.hourglass.redis;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * A node's counts, kept where they happen: schedules on the callers' threads in a striped adder;
 * deliveries, retries, dead letters and lag by the claim loop's thread alone (an ordered write, no
 * read-modify-write).
 *
 * <p>Complexity: O(1) per count. Ordering: not applicable. Thread-safety: each count is written by
 * the threads named above and read by any.
 */
final class NodeCounters {
    private final LongAdder scheduled = new LongAdder();
    private final AtomicLong fired = new AtomicLong();
    private final AtomicLong retried = new AtomicLong();
    private final AtomicLong dead = new AtomicLong();
    private final AtomicLong lagMillisTotal = new AtomicLong();
    private final AtomicLong lagMillisMax = new AtomicLong();

    /** Callers' threads: {@code n} schedules acknowledged. */
    void scheduled(long n) {
        scheduled.add(n);
    }

    /** The loop's thread: a delivery handed to a handler, claimed {@code lagMillis} after due. */
    void fired(long lagMillis) {
        long lag = Math.max(0, lagMillis);
        fired.lazySet(fired.get() + 1);
        lagMillisTotal.lazySet(lagMillisTotal.get() + lag);
        if (lag > lagMillisMax.get()) {
            lagMillisMax.lazySet(lag);
        }
    }

    /** The loop's thread: a failed attempt that Redis set to be retried. */
    void retried() {
        retried.lazySet(retried.get() + 1);
    }

    /** The loop's thread: {@code n} timers moved to the dead letters. */
    void dead(long n) {
        dead.lazySet(dead.get() + n);
    }

    RedisNodeStats snapshot(int inFlight) {
        return new RedisNodeStats(
                scheduled.sum(),
                fired.get(),
                retried.get(),
                dead.get(),
                inFlight,
                lagMillisTotal.get(),
                lagMillisMax.get());
    }
}
