package dev.hourglass.redis;

import java.util.List;

/**
 * One contender of {@link RedisBenchMain}: something that stores timers in Redis and fires them on
 * consumer nodes. A fresh one is opened for every measurement, on a flushed server.
 *
 * <p>Complexity, ordering: up to the contender. Thread-safety: {@link #scheduleOne} may be called
 * from several threads at once; the other methods from one thread.
 */
interface BenchContender extends AutoCloseable {
    /** A timer to schedule: its index (the id) and its due time, epoch milliseconds. */
    record Due(int index, long dueMillis) {}

    /**
     * Schedules timers in as few round trips as the contender can (pipelined or asynchronous);
     * returns when all are acknowledged.
     *
     * @param timers the timers
     */
    void scheduleBatch(List<Due> timers);

    /**
     * Schedules one timer and waits for its acknowledgement.
     *
     * @param index the timer's index
     * @param dueMillis its due time, epoch milliseconds
     */
    void scheduleOne(int index, long dueMillis);

    /**
     * Starts consumer nodes (each with its own connections) that report every delivery to the sink.
     *
     * @param nodes how many
     * @param sink where deliveries go
     */
    void startNodes(int nodes, FireSink sink);

    /**
     * Counts the timers Redis still holds (scheduled, due, claimed and not acknowledged).
     *
     * @return the count
     */
    long pending();

    /** The payload every contender stores: the index and the due time, so a node can time lateness. */
    static String payload(int index, long dueMillis) {
        return index + ":" + dueMillis;
    }

    /** Reports a delivered payload (see {@link #payload}) to the sink. */
    static void deliver(FireSink sink, String payload) {
        int colon = payload.indexOf(':');
        sink.fired(Integer.parseInt(payload.substring(0, colon)), Long.parseLong(payload.substring(colon + 1)));
    }

    @Override
    void close();

    /** Opens contenders of one kind against a server. */
    @FunctionalInterface
    interface Factory {
        /**
         * Opens a contender (its producer side; nodes start with {@link #startNodes}).
         *
         * @param port the Redis port on 127.0.0.1
         * @param name a name unique to this measurement (a key prefix)
         * @return the contender
         */
        BenchContender open(int port, String name);
    }

    /** A kind of contender as a row of the table: its label, the appendfsync it runs with, its factory. */
    record Kind(String label, String appendfsync, Factory factory) {}

    /** Returns every contender, in the order of the table. */
    static List<Kind> all() {
        return List.of(
                new Kind(
                        "Hourglass defaults (fsync)",
                        "always",
                        (port, name) -> HourglassContender.open(port, name, Durability.fsync())),
                new Kind(
                        "Hourglass memory()",
                        "everysec",
                        (port, name) -> HourglassContender.open(port, name, Durability.memory())),
                new Kind("lease+ack poller (baseline)", "everysec", LeasePoller::open),
                new Kind("Redisson RDelayedQueue", "everysec", RedissonContender::open));
    }
}
