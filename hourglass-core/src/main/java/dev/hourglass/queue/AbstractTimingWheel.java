package dev.hourglass.queue;

/**
 * Tick arithmetic shared by the timing wheels, done so that nothing overflows or wraps early.
 *
 * <p>A wheel keeps a <em>current tick</em>: {@link #current} is a 64-bit tick counter that counts
 * modulo 2<sup>64</sup>, and {@link #currentTime} is the time of its boundary. Everything is
 * measured from there in whole ticks: a deadline lies {@link #ticksUntil} ticks ahead (0 when its
 * rounded-up boundary has been reached, which makes it part of the current tick). A poll moves the
 * current tick towards the tick of {@code now}, passing over empty ticks even when the limit has
 * been reached; a poll that stops at its limit with due timers left stays at the first tick that
 * still holds one, so the rest come first next time.
 *
 * <p>Worked example, tick 10 ns, start 0: a deadline of 25 rounds up to the boundary 30, tick 3. At
 * current tick 1 ({@code currentTime} 10) it lies {@code ceil((25 - 10) / 10) = 2} ticks ahead; a
 * poll at now 29 reaches tick 2 and does not deliver it; a poll at 30 does.
 */
abstract class AbstractTimingWheel<T> extends AbstractTimerQueue<T, LinkedEntry<T>> {

    final long tickNanos;

    /** The current tick, counted modulo 2^64 from the start time. */
    long current;

    /** The time of the current tick's boundary: {@code startTime + current * tickNanos}, wrapping. */
    long currentTime;

    AbstractTimingWheel(long startTime, long tickNanos) {
        super(startTime);
        TimerQueues.requirePositiveTick(tickNanos);
        this.tickNanos = tickNanos;
        this.currentTime = startTime;
    }

    @Override
    public final long tick() {
        return tickNanos;
    }

    @Override
    final LinkedEntry<T> newEntry(T payload, long deadline) {
        return new ListEntry<>(this, payload, deadline);
    }

    /**
     * Returns how many ticks after the current tick the deadline's rounded-up boundary lies: 0 if it
     * has been reached. The result is unsigned: a deadline near {@code time + Long.MAX_VALUE} with a
     * 1 ns tick may need all 64 bits.
     */
    final long ticksUntil(long deadline) {
        // Read both times relative to the queue's time, where the subtraction cannot overflow.
        if (deadline - time <= currentTime - time) {
            return 0;
        }
        return Long.divideUnsigned(deadline - currentTime - 1, tickNanos) + 1;
    }

    /** True if the deadline is due at the tick {@code ticks} after the current one. */
    final boolean dueBy(long deadline, long ticks) {
        return Long.compareUnsigned(ticksUntil(deadline), ticks) <= 0;
    }

    /** Returns how many whole ticks lie between the current tick and {@code now} (unsigned). */
    final long ticksTo(long now) {
        return Long.divideUnsigned(now - currentTime, tickNanos);
    }

    /** Moves the current tick forward by {@code ticks} (unsigned). */
    final void advance(long ticks) {
        current += ticks;
        currentTime += ticks * tickNanos;
    }

    /**
     * Returns the boundary time of the tick {@code ticks} after the current one, capped at {@code
     * time + Long.MAX_VALUE}, the furthest time the queue can express.
     */
    final long boundaryAfter(long ticks) {
        long lag = time - currentTime;
        // (Long.MAX_VALUE + lag) fits in 64 unsigned bits because lag is not negative.
        long maxTicks = Long.divideUnsigned(Long.MAX_VALUE + lag, tickNanos);
        if (Long.compareUnsigned(ticks, maxTicks) > 0) {
            return time + Long.MAX_VALUE;
        }
        return currentTime + ticks * tickNanos;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[size=" + size + ", time=" + time + ", tick=" + tickNanos
                + ", currentTick=" + current + "]";
    }
}
