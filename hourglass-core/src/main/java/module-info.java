/**
 * Hourglass core: nanosecond clocks ({@code dev.hourglass.time}), the timer queue interface and its
 * structures ({@code dev.hourglass.queue}), the thread-safe timers that drive them ({@code
 * dev.hourglass.timer}), the {@code java.nio} event loop that drives them beside I/O ({@code
 * dev.hourglass.loop}) and a {@code ScheduledExecutorService} over a timer ({@code
 * dev.hourglass.executor}). No dependencies beyond {@code java.base}.
 */
module dev.hourglass.core {
    exports dev.hourglass.time;
    exports dev.hourglass.queue;
    exports dev.hourglass.timer;
    exports dev.hourglass.loop;
    exports dev.hourglass.executor;
}
