/**
 * Hourglass core: nanosecond clocks ({@code dev.hourglass.time}), the timer queue interface and its
 * structures ({@code dev.hourglass.queue}), and the thread-safe timers that drive them ({@code
 * dev.hourglass.timer}). No dependencies beyond {@code java.base}.
 */
module dev.hourglass.core {
    exports dev.hourglass.time;
    exports dev.hourglass.queue;
    exports dev.hourglass.timer;
}
