package dev.hourglass.redis;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.util.KeyValue;

/**
 * Makes a pipeline of writes keep a {@link Durability} promise: appends one wait command after the
 * writes ({@code WAITAOF}, {@code WAIT}, or on Redis before 7.2 a {@code CONFIG GET} that proves the
 * AOF is still fsynced on every write) and, once the pipeline has run, checks its reply. A write
 * whose check fails was not acknowledged: it may or may not have been stored.
 *
 * <p>Complexity: one extra command per pipeline. Ordering: the wait covers every write before it on
 * the same connection. Thread-safety: immutable.
 */
final class WriteWait {
    /** No wait: {@link Durability#memory()}. */
    static final WriteWait NONE = new WriteWait(Durability.memory(), false);

    /** A write that did not reach the promised durability. */
    static final class NotDurableException extends JedisException {
        private static final long serialVersionUID = 1L;

        NotDurableException(String message) {
            super(message);
        }
    }

    /** Checks the reply of the appended command; throws {@link NotDurableException} if short. */
    interface Check {
        void verify();
    }

    private final Durability durability;
    private final boolean waitAof;

    /**
     * Creates the wait for a promise.
     *
     * @param durability the promise
     * @param waitAof whether the server has WAITAOF (Redis 7.2 and later)
     */
    WriteWait(Durability durability, boolean waitAof) {
        this.durability = durability;
        this.waitAof = waitAof;
    }

    /** Returns whether the server has WAITAOF (Redis 7.2 and later). */
    boolean waitAof() {
        return waitAof;
    }

    /**
     * Appends the wait to a pipeline that holds writes.
     *
     * @param pipeline the pipeline, before its sync
     * @return what to verify after the sync
     */
    Check append(Pipeline pipeline) {
        long timeout = durability.timeoutMillis();
        switch (durability.kind()) {
            case MEMORY:
                return () -> {};
            case REPLICAS: {
                int n = durability.replicaCount();
                Response<Long> acked = pipeline.waitReplicas(n, timeout);
                return () -> {
                    if (acked.get() < n) {
                        throw new NotDurableException("WAIT " + n + " " + timeout + ": only " + acked.get()
                                + " replica(s) acknowledged the write within " + timeout + " ms");
                    }
                };
            }
            case FSYNC:
            default:
                if (waitAof) {
                    Response<KeyValue<Long, Long>> synced = pipeline.waitAOF(1, 0, timeout);
                    return () -> {
                        if (synced.get().getKey() < 1) {
                            throw new NotDurableException(
                                    "WAITAOF 1 0 " + timeout + ": the AOF was not fsynced within " + timeout + " ms");
                        }
                    };
                }
                Response<Object> config =
                        pipeline.sendCommand(Protocol.Command.CONFIG, "GET", "appendonly", "appendfsync");
                return () -> {
                    Map<String, String> settings = settings(config.get());
                    if (!"yes".equals(settings.get("appendonly")) || !"always".equals(settings.get("appendfsync"))) {
                        throw new NotDurableException("Redis no longer fsyncs every write (appendonly "
                                + settings.get("appendonly") + ", appendfsync " + settings.get("appendfsync")
                                + "): the write may not be on disk; set appendonly yes and appendfsync always");
                    }
                };
        }
    }

    /** Turns a CONFIG GET reply (name, value, name, value...) into a map. */
    static Map<String, String> settings(Object reply) {
        Map<String, String> out = new HashMap<>();
        List<?> list = (List<?>) reply;
        for (int i = 0; i + 1 < list.size(); i += 2) {
            out.put(text(list.get(i)), text(list.get(i + 1)));
        }
        return out;
    }

    private static String text(Object o) {
        return o instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : String.valueOf(o);
    }
}
