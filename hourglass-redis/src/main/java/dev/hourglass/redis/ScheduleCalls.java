package dev.hourglass.redis;

import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Schedules timers: the timers of one shard go in one call, up to {@value #PER_CALL} a call, in the
 * order given (so that of two requests for one id the later still wins), and the calls are cut into
 * pipelines of about {@value #PER_PIPELINE} timers, each followed by one durability wait.
 *
 * <p>When a shard's timers all have a due time ({@link TimerRequest#at}), each call is a {@link
 * ScriptRunner.Transaction} of plain commands, not a script: a script call also pays for Lua (its
 * entry and the conversion of every argument and reply). It writes the payloads, removes the ids
 * from leases, dead and recur (misses for a new id), writes due and meta, and reads the shard's
 * earliest timer and Redis's time, all in one EXEC; when one of its timers is now the earliest, a
 * {@code PUBLISH} follows once the pipeline has answered (not atomic with the write: a wake-up lost
 * in between is a lost message like any other, bounded by the fallback poll). A delay ({@link TimerRequest#after})
 * needs Redis's clock inside the write, so a shard with any timer with a delay gets {@link
 * Script#SCHEDULE_ALL} calls, or a {@link Script#SCHEDULE} call for a lone timer.
 *
 * <p>Complexity: O(timers) here; O(log n) per timer in Redis. Ordering: per shard, the order of the
 * requests. Thread-safety: stateless.
 */
final class ScheduleCalls {
    private static final System.Logger LOG = System.getLogger("dev.hourglass.redis");

    /** The most timers in one call, so that one call never holds Redis for long. */
    static final int PER_CALL = 200;

    /** About how many timers one pipeline (and its one durability wait) carries. */
    static final int PER_PIPELINE = 1_000;

    private static final byte[] ZERO = ShardKeys.bytes("0");

    /** Where the transaction's replies of ZRANGE (the shard's earliest) and TIME are. */
    private static final int HEAD_REPLY = 6;

    private static final int TIME_REPLY = 7;

    private ScheduleCalls() {}

    /** One call: its shard, its timers and the request that stores them. */
    private record Part(ShardKeys shard, List<TimerRequest> timers, ScriptRunner.Request request) {}

    /** A wake-up message owed after a transaction. */
    private record Wake(ShardKeys shard, byte[] message) {}

    /**
     * Schedules one timer and waits for its durability.
     *
     * @param servers where it goes
     * @param wait the durability wait
     * @param shard the timer's shard
     * @param channel the wake-up channel
     * @param request the timer
     * @return its due time (ms, Redis's clock)
     */
    static long runOne(Servers servers, WriteWait wait, ShardKeys shard, byte[] channel, TimerRequest request) {
        Part part = part(shard, channel, List.of(request), request.relative());
        Object reply =
                ScriptRunner.runAll(servers, List.of(part.request()), wait).get(0);
        if (request.relative()) {
            return (Long) reply;
        }
        publish(servers, channel, wakeUps(List.of(part), List.of(reply)));
        return request.millis();
    }

    /**
     * Schedules timers, pipeline by pipeline, each pipeline followed by its durability wait.
     *
     * @param servers where they go
     * @param wait the durability wait
     * @param shards the queue's shards
     * @param channel the wake-up channel
     * @param requests the timers, none null
     */
    static void runAll(
            Servers servers, WriteWait wait, ShardKeys[] shards, byte[] channel, List<TimerRequest> requests) {
        for (List<Part> pipeline : pipelines(shards, channel, requests)) {
            List<ScriptRunner.Request> calls = new ArrayList<>(pipeline.size());
            pipeline.forEach(p -> calls.add(p.request()));
            publish(servers, channel, wakeUps(pipeline, ScriptRunner.runAll(servers, calls, wait)));
        }
    }

    private static List<List<Part>> pipelines(ShardKeys[] shards, byte[] channel, List<TimerRequest> requests) {
        Map<ShardKeys, List<TimerRequest>> byShard = new IdentityHashMap<>();
        List<ShardKeys> order = new ArrayList<>();
        for (TimerRequest r : requests) {
            ShardKeys shard = shards[ShardKeys.shardOf(r.id(), shards.length)];
            byShard.computeIfAbsent(shard, s -> {
                        order.add(s);
                        return new ArrayList<>();
                    })
                    .add(r);
        }
        List<List<Part>> pipelines = new ArrayList<>();
        List<Part> pipeline = new ArrayList<>();
        int timers = 0;
        for (ShardKeys shard : order) {
            List<TimerRequest> all = byShard.get(shard);
            // One kind per shard: a script that answers NOSCRIPT runs again after the pipeline, so
            // it must not share a shard with a transaction that a later request for an id is in.
            boolean scripts = all.stream().anyMatch(TimerRequest::relative);
            for (int from = 0; from < all.size(); from += PER_CALL) {
                List<TimerRequest> part = all.subList(from, Math.min(all.size(), from + PER_CALL));
                pipeline.add(part(shard, channel, part, scripts));
                timers += part.size();
                if (timers >= PER_PIPELINE) {
                    pipelines.add(pipeline);
                    pipeline = new ArrayList<>();
                    timers = 0;
                }
            }
        }
        if (!pipeline.isEmpty()) {
            pipelines.add(pipeline);
        }
        return pipelines;
    }

    private static Part part(ShardKeys shard, byte[] channel, List<TimerRequest> timers, boolean scripts) {
        if (!scripts) {
            return new Part(shard, timers, transaction(shard, timers));
        }
        if (timers.size() == 1) {
            TimerRequest r = timers.get(0);
            return new Part(
                    shard,
                    timers,
                    new ScriptRunner.Call(
                            Script.SCHEDULE,
                            shard.keys(),
                            List.of(
                                    ShardKeys.bytes(r.id()),
                                    r.payload(),
                                    ShardKeys.bytes(r.relative() ? "in" : "at"),
                                    ShardKeys.bytes(Long.toString(r.millis())),
                                    channel,
                                    shard.wakeTopic())));
        }
        List<byte[]> args = new ArrayList<>(2 + 4 * timers.size());
        args.add(channel);
        args.add(shard.wakeTopic());
        for (TimerRequest r : timers) {
            args.add(ShardKeys.bytes(r.id()));
            args.add(r.payload());
            args.add(ShardKeys.bytes(r.relative() ? "in" : "at"));
            args.add(ShardKeys.bytes(Long.toString(r.millis())));
        }
        return new Part(shard, timers, new ScriptRunner.Call(Script.SCHEDULE_ALL, shard.keys(), args));
    }

    /** The commands of {@link Script#SCHEDULE_ALL} for timers that all have a due time. */
    private static ScriptRunner.Transaction transaction(ShardKeys shard, List<TimerRequest> timers) {
        List<byte[]> k = shard.keys();
        int n = timers.size();
        byte[][] payloads = new byte[1 + 2 * n][];
        byte[][] leases = new byte[1 + n][];
        byte[][] dead = new byte[1 + n][];
        byte[][] recur = new byte[1 + n][];
        byte[][] due = new byte[1 + 2 * n][];
        byte[][] meta = new byte[1 + 2 * n][];
        payloads[0] = k.get(3);
        leases[0] = k.get(1);
        dead[0] = k.get(2);
        recur[0] = k.get(6);
        due[0] = k.get(0);
        meta[0] = k.get(4);
        for (int i = 0; i < n; i++) {
            TimerRequest r = timers.get(i);
            byte[] id = ShardKeys.bytes(r.id());
            String millis = Long.toString(r.millis());
            payloads[1 + 2 * i] = id;
            payloads[2 + 2 * i] = r.payload();
            leases[1 + i] = id;
            dead[1 + i] = id;
            recur[1 + i] = id;
            due[1 + 2 * i] = ShardKeys.bytes(millis);
            due[2 + 2 * i] = id;
            meta[1 + 2 * i] = id;
            meta[2 + 2 * i] = ShardKeys.bytes(millis + " 0 0 " + Script.NO_OWNER);
        }
        return new ScriptRunner.Transaction( // keep HEAD_REPLY and TIME_REPLY in step with this order
                k.get(0),
                List.of(
                        new ScriptRunner.Command(Protocol.Command.HSET, payloads),
                        new ScriptRunner.Command(Protocol.Command.ZREM, leases),
                        new ScriptRunner.Command(Protocol.Command.ZREM, dead),
                        new ScriptRunner.Command(Protocol.Command.HDEL, recur),
                        new ScriptRunner.Command(Protocol.Command.ZADD, due),
                        new ScriptRunner.Command(Protocol.Command.HSET, meta),
                        new ScriptRunner.Command(Protocol.Command.ZRANGE, k.get(0), ZERO, ZERO),
                        new ScriptRunner.Command(Protocol.Command.TIME)));
    }

    /**
     * The wake-ups the transactions of a pipeline owe: for each whose timer is now the shard's
     * earliest, "delay queue shard" as the scripts publish it, the delay from Redis's time rounded
     * up.
     */
    private static List<Wake> wakeUps(List<Part> parts, List<Object> replies) {
        List<Wake> wakes = new ArrayList<>();
        for (int p = 0; p < parts.size(); p++) {
            Part part = parts.get(p);
            if (!(part.request() instanceof ScriptRunner.Transaction)) {
                continue; // the scripts publish themselves
            }
            List<?> reply = (List<?>) replies.get(p);
            List<?> head = (List<?>) reply.get(HEAD_REPLY);
            if (head.isEmpty()) {
                continue;
            }
            for (int i = part.timers().size() - 1; i >= 0; i--) { // the later request for an id won
                TimerRequest r = part.timers().get(i);
                if (Arrays.equals(ShardKeys.bytes(r.id()), (byte[]) head.get(0))) {
                    List<?> time = (List<?>) reply.get(TIME_REPLY);
                    long now = number(time.get(0)) * 1000 + (number(time.get(1)) + 999) / 1000;
                    byte[] delay = ShardKeys.bytes(Math.max(0, r.millis() - now) + " ");
                    byte[] topic = part.shard().wakeTopic();
                    byte[] message = Arrays.copyOf(delay, delay.length + topic.length);
                    System.arraycopy(topic, 0, message, delay.length, topic.length);
                    wakes.add(new Wake(part.shard(), message));
                    break;
                }
            }
        }
        return wakes;
    }

    /**
     * Publishes wake-ups in one pipeline (a cluster forwards every PUBLISH to all its nodes). The
     * schedules are stored and acknowledged already, so a failure is logged, not thrown: the
     * messages are lost like any other, and the fallback poll bounds what that costs.
     */
    private static void publish(Servers servers, byte[] channel, List<Wake> wakes) {
        if (wakes.isEmpty()) {
            return;
        }
        try {
            servers.on(wakes.get(0).shard().keys().get(0), jedis -> {
                try (Pipeline pipeline = jedis.pipelined()) {
                    wakes.forEach(w -> pipeline.publish(channel, w.message()));
                    pipeline.sync();
                }
                return null;
            });
        } catch (JedisException e) {
            LOG.log(
                    Level.WARNING,
                    wakes.size() + " wake-up message(s) not published (the nodes find those timers at their"
                            + " next fallback poll): " + e);
        }
    }

    private static long number(Object digits) {
        return Long.parseLong(new String((byte[]) digits, StandardCharsets.US_ASCII));
    }
}
