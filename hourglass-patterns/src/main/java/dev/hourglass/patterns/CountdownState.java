package dev.hourglass.patterns;

/**
 * Where a {@link Countdown} is in its life: running, paused, then completed or cancelled.
 *
 * <p>Complexity: O(1). Ordering: RUNNING and PAUSED alternate; COMPLETED and CANCELLED are final.
 *
 * <p>Thread-safety: immutable.
 */
public enum CountdownState {
    /** Counting down; ticks and completion will come. */
    RUNNING,
    /** Stopped by {@link Countdown#pause()}; {@link Countdown#resume()} goes on from here. */
    PAUSED,
    /** The completion callback has been called (or is being called); final. */
    COMPLETED,
    /** Stopped by {@link Countdown#cancel()} before completing; final. */
    CANCELLED
}
