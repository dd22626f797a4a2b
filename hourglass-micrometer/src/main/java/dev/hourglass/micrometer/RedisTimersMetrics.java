package dev.hourglass.micrometer;

import dev.hourglass.redis.RedisNodeStats;
import dev.hourglass.redis.RedisTimers;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.concurrent.TimeUnit;
import java.util.function.ToLongFunction;

/**
 * The meters of a {@link RedisTimers} node: what this node did, read from {@link
 * RedisTimers#nodeStats()} (the node's memory, no Redis call) when the registry is read.
 *
 * <table>
 *   <caption>Meters, each tagged {@code name} and the extra tags</caption>
 *   <tr><th>name</th><th>type</th><th>meaning</th></tr>
 *   <tr><td>{@code hourglass.redis.scheduled}</td><td>function counter</td><td>schedules this node
 *       acknowledged</td></tr>
 *   <tr><td>{@code hourglass.redis.fired}</td><td>function counter</td><td>deliveries this node
 *       handed to a handler, retries included</td></tr>
 *   <tr><td>{@code hourglass.redis.retried}</td><td>function counter</td><td>failed attempts set to
 *       be delivered again</td></tr>
 *   <tr><td>{@code hourglass.redis.dead}</td><td>function counter</td><td>timers this node moved to
 *       the dead letters</td></tr>
 *   <tr><td>{@code hourglass.redis.in.flight}</td><td>gauge</td><td>deliveries running now</td></tr>
 *   <tr><td>{@code hourglass.redis.lag}</td><td>function timer</td><td>claim time minus due time
 *       (Redis's clock, whole milliseconds): count and total</td></tr>
 *   <tr><td>{@code hourglass.redis.lag.max}</td><td>time gauge</td><td>the largest lag</td></tr>
 * </table>
 *
 * <p>Lag is a function timer (a count and a total, so a rate of the two gives the mean lag over any
 * window) because one delivery costs Redis round trips and a handler: a mean and a maximum say
 * whether nodes keep up, which is the question. The fleet's timers by state (scheduled, claimed,
 * dead) are shared by every node and cost a Redis round trip to count: ask {@link
 * RedisTimers#stats(String)} where that belongs, not at every scrape of every node.
 *
 * <p>The meters hold the node weakly, as Micrometer's function meters do. Bind each node of a
 * process under its own name.
 *
 * <p>Complexity: binding O(1); each read O(1). Thread-safety: immutable; meters may be read from any
 * thread.
 */
public final class RedisTimersMetrics implements MeterBinder {

    private final RedisTimers node;
    private final Tags tags;

    private RedisTimersMetrics(RedisTimers node, Tags tags) {
        this.node = node;
        this.tags = tags;
    }

    /**
     * Makes the binder of {@code node}'s meters.
     *
     * @param node the node, held weakly by the meters
     * @param name the value of the {@code name} tag, which tells this node's series from others'
     * @param extraTags more tags for every meter
     * @return the binder; {@link #bindTo} registers the meters
     * @throws NullPointerException if an argument is null, naming it
     * @throws IllegalArgumentException if {@code extraTags} holds a tag called {@code name}
     */
    public static RedisTimersMetrics of(RedisTimers node, String name, Iterable<Tag> extraTags) {
        return new RedisTimersMetrics(MetricTags.require(node, "node"), MetricTags.of(name, extraTags));
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        counter(registry, "hourglass.redis.scheduled", "schedules this node acknowledged", RedisNodeStats::scheduled);
        counter(registry, "hourglass.redis.fired", "deliveries handed to a handler", RedisNodeStats::fired);
        counter(registry, "hourglass.redis.retried", "failed attempts set to be retried", RedisNodeStats::retried);
        counter(registry, "hourglass.redis.dead", "timers moved to the dead letters", RedisNodeStats::dead);
        Gauge.builder("hourglass.redis.in.flight", node, n -> n.nodeStats().inFlight())
                .tags(tags)
                .description("deliveries running now")
                .register(registry);
        FunctionTimer.builder(
                        "hourglass.redis.lag",
                        node,
                        n -> n.nodeStats().fired(),
                        n -> n.nodeStats().lagTotal().toMillis(),
                        TimeUnit.MILLISECONDS)
                .tags(tags)
                .description("claim time minus due time, on Redis's clock")
                .register(registry);
        TimeGauge.builder("hourglass.redis.lag.max", node, TimeUnit.MILLISECONDS, n -> n.nodeStats()
                        .lagMax()
                        .toMillis())
                .tags(tags)
                .description("the largest lag since the node started")
                .register(registry);
    }

    private void counter(
            MeterRegistry registry, String name, String description, ToLongFunction<RedisNodeStats> count) {
        FunctionCounter.builder(name, node, n -> count.applyAsLong(n.nodeStats()))
                .tags(tags)
                .description(description)
                .register(registry);
    }

    @Override
    public String toString() {
        return "RedisTimersMetrics[" + tags + "]";
    }
}
