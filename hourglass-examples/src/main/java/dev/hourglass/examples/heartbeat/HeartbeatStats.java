package dev.hourglass.examples.heartbeat;

/**
 * The counters of a {@link HeartbeatServer} at one moment. Each is read atomically but not all
 * together, so while clients come and go {@code accepted} may briefly differ from {@code connected
 * + kicked + disconnected + shutDown}; once the server is quiet they add up.
 *
 * <p>Complexity: O(1). Ordering: not applicable. Thread-safety: immutable.
 *
 * @param connected connections open now
 * @param accepted connections accepted since the start
 * @param kicked connections closed because they were silent for longer than the idle timeout
 * @param disconnected connections the client closed or reset
 * @param shutDown connections closed because the server closed
 * @param pings {@code PING} lines received
 * @param badLines other non-empty lines received (each answered with {@code ERR})
 */
public record HeartbeatStats(
        long connected, long accepted, long kicked, long disconnected, long shutDown, long pings, long badLines) {}
