package dev.hourglass.redis;

/**
 * A call to Redis failed: the server is down or unreachable, or it answered with an error (for
 * instance OOM when it is out of memory), or the write did not reach the node's {@link Durability}.
 * For a schedule, cancel or requeue it means the change was NOT acknowledged: it may or may not have
 * been applied (the reply may have been lost after the script ran). Every one of these calls is
 * idempotent by id, so repeating it is safe. Also thrown by {@link RedisTimersBuilder#build()} when
 * the server cannot keep the node's promises, with the setting to change.
 *
 * <p>Complexity, ordering: not applicable. Thread-safety: immutable once thrown.
 */
public final class RedisTimersException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates one.
     *
     * @param message what was not done, and that repeating it is safe
     * @param cause the Redis client's exception
     */
    RedisTimersException(String message, Throwable cause) {
        super(message + ": " + cause.getMessage(), cause);
    }

    /**
     * Creates one without a cause.
     *
     * @param message what is wrong and how to fix it
     */
    RedisTimersException(String message) {
        super(message);
    }
}
