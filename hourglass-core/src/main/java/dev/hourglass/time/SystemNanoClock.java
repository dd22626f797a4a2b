package dev.hourglass.time;

/** The clock backed by {@link System#nanoTime()}. */
enum SystemNanoClock implements NanoClock {
    INSTANCE;

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public String toString() {
        return "NanoClock.system()";
    }
}
