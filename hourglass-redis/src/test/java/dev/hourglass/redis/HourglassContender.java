package dev.hourglass.redis;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link RedisTimers} as a contender of {@link RedisBenchMain}, with the builder's defaults (see
 * {@link RedisTimersBuilder}: 1 shard, batches of 100, 4 handler threads, as many in flight, lease
 * 30 s, a pool of 16) except the address, names and the durability under test. The producer is a
 * node of its own that registers no handler, so it claims nothing.
 *
 * <p>Complexity, ordering: those of {@link RedisTimers}. Thread-safety: that of {@link
 * BenchContender}.
 */
final class HourglassContender implements BenchContender {
    private static final String QUEUE = "bench";

    private final int port;
    private final String name;
    private final Durability durability;
    private final RedisTimers producer;
    private final List<RedisTimers> nodes = new ArrayList<>();

    private HourglassContender(int port, String name, Durability durability) {
        this.port = port;
        this.name = name;
        this.durability = durability;
        this.producer = node("producer");
    }

    static HourglassContender open(int port, String name, Durability durability) {
        return new HourglassContender(port, name, durability);
    }

    private RedisTimers node(String id) {
        return RedisTimers.builder()
                .redis("127.0.0.1", port)
                .namespace(name)
                .queues(QUEUE)
                .nodeId(id)
                .durability(durability)
                .build();
    }

    @Override
    public void scheduleBatch(List<Due> timers) {
        List<TimerRequest> requests = new ArrayList<>(timers.size());
        for (Due d : timers) {
            requests.add(TimerRequest.at(
                    Integer.toString(d.index()),
                    Instant.ofEpochMilli(d.dueMillis()),
                    BenchContender.payload(d.index(), d.dueMillis()).getBytes(UTF_8)));
        }
        producer.scheduleAll(QUEUE, requests);
    }

    @Override
    public void scheduleOne(int index, long dueMillis) {
        producer.schedule(
                QUEUE,
                Integer.toString(index),
                Instant.ofEpochMilli(dueMillis),
                BenchContender.payload(index, dueMillis).getBytes(UTF_8));
    }

    @Override
    public void startNodes(int count, FireSink sink) {
        for (int i = 0; i < count; i++) {
            RedisTimers node = node("node-" + i);
            nodes.add(node);
            node.register(QUEUE, d -> BenchContender.deliver(sink, d.payloadAsString()));
        }
    }

    @Override
    public long pending() {
        return producer.stats(QUEUE).values().stream()
                .mapToLong(Long::longValue)
                .sum();
    }

    @Override
    public void close() {
        nodes.forEach(RedisTimers::close);
        producer.close();
    }
}
