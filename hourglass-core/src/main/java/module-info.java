/**
 * Hourglass core: nanosecond clocks ({@code dev.hourglass.time}), the timer queue interface and its
 * structures ({@code dev.hourglass.queue}), the thread-safe timers that drive them ({@code
 * dev.hourglass.timer}) and the {@code java.nio} event loop that drives them beside I/O ({@code
 * dev.hourglass.loop}). No dependencies beyond {@code java.base}.
 */
module dev.hourglass.core {
    exports dev.hourglass.time;
    exports dev.hourglass.queue;
    exports dev.hourglass.timer;
    exports dev.hourglass.loop;
}
