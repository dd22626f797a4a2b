package dev.hourglass.queue;

/** How a structure orders timers that are due in the same tick, as its contract test declares. */
enum WithinTickOrder {
    /** Exact structure: (deadline, insertion) order, tick 1. */
    EXACT,
    /** Wheel: insertion order within a tick. */
    INSERTION,
    /** Wheel: (deadline, insertion) order within a tick. */
    DEADLINE,
    /** Wheel: no promise within a tick. */
    ANY
}
