package dev.hourglass.redis;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the schedule calls of timers: the timers of one shard go in one {@link Script#SCHEDULE_ALL}
 * call, up to {@value #PER_CALL} a call, in the order given (so that of two requests for one id the
 * later still wins), a lone timer in a {@link Script#SCHEDULE} call (cheaper for one), and the calls
 * are cut into pipelines of about {@value #PER_PIPELINE} timers, each followed by one durability
 * wait.
 *
 * <p>Complexity: O(timers). Ordering: per shard, the order of the requests. Thread-safety:
 * stateless.
 */
final class ScheduleCalls {
    /** The most timers in one script call, so that one call never holds Redis for long. */
    static final int PER_CALL = 200;

    /** About how many timers one pipeline (and its one durability wait) carries. */
    static final int PER_PIPELINE = 1_000;

    private ScheduleCalls() {}

    /**
     * Returns the call that schedules one timer; its reply is its due time (ms).
     *
     * @param shard the timer's shard
     * @param channel the wake-up channel
     * @param request the timer
     * @return the call
     */
    static ScriptRunner.Call one(ShardKeys shard, byte[] channel, TimerRequest request) {
        return new ScriptRunner.Call(
                Script.SCHEDULE,
                shard.keys(),
                List.of(
                        ShardKeys.bytes(request.id()),
                        request.payload(),
                        ShardKeys.bytes(request.relative() ? "in" : "at"),
                        ShardKeys.bytes(Long.toString(request.millis())),
                        channel,
                        shard.wakeTopic()));
    }

    /**
     * Returns the pipelines that schedule the requests, each a list of calls.
     *
     * @param shards the queue's shards
     * @param channel the wake-up channel
     * @param requests the timers, none null
     * @return the pipelines, in order
     */
    static List<List<ScriptRunner.Call>> pipelines(ShardKeys[] shards, byte[] channel, List<TimerRequest> requests) {
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
        List<List<ScriptRunner.Call>> pipelines = new ArrayList<>();
        List<ScriptRunner.Call> pipeline = new ArrayList<>();
        int timers = 0;
        for (ShardKeys shard : order) {
            List<TimerRequest> all = byShard.get(shard);
            for (int from = 0; from < all.size(); from += PER_CALL) {
                List<TimerRequest> part = all.subList(from, Math.min(all.size(), from + PER_CALL));
                pipeline.add(part.size() == 1 ? one(shard, channel, part.get(0)) : all(shard, channel, part));
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

    private static ScriptRunner.Call all(ShardKeys shard, byte[] channel, List<TimerRequest> requests) {
        List<byte[]> args = new ArrayList<>(2 + 4 * requests.size());
        args.add(channel);
        args.add(shard.wakeTopic());
        for (TimerRequest r : requests) {
            args.add(ShardKeys.bytes(r.id()));
            args.add(r.payload());
            args.add(ShardKeys.bytes(r.relative() ? "in" : "at"));
            args.add(ShardKeys.bytes(Long.toString(r.millis())));
        }
        return new ScriptRunner.Call(Script.SCHEDULE_ALL, shard.keys(), args);
    }
}
