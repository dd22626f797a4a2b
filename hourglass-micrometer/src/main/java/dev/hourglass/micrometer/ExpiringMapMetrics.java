package dev.hourglass.micrometer;

import dev.hourglass.patterns.ExpiringMap;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * The meters of an {@link ExpiringMap}, read when the registry is read:
 *
 * <table>
 *   <caption>Meters, each tagged {@code name} and the extra tags</caption>
 *   <tr><th>name</th><th>type</th><th>meaning</th></tr>
 *   <tr><td>{@code hourglass.expiring.map.size}</td><td>gauge</td><td>entries held ({@link
 *       ExpiringMap#estimatedSize()}): live, or expired and not yet purged</td></tr>
 *   <tr><td>{@code hourglass.expiring.map.expirations}</td><td>function counter</td><td>entries
 *       expired ({@link ExpiringMap#expirations()})</td></tr>
 * </table>
 *
 * <p>The size is the one a scrape can afford: {@link ExpiringMap#size()} is exact but purges
 * first, which would run the expiry listener on the scraping thread and take every stripe's lock.
 * The meters hold the map weakly, as Micrometer's function meters do.
 *
 * <p>Complexity: binding O(1); a read of the size O(stripes), of the counter O(1). Thread-safety:
 * immutable; meters may be read from any thread.
 */
public final class ExpiringMapMetrics implements MeterBinder {

    private final ExpiringMap<?, ?> map;
    private final Tags tags;

    private ExpiringMapMetrics(ExpiringMap<?, ?> map, Tags tags) {
        this.map = map;
        this.tags = tags;
    }

    /**
     * Makes the binder of {@code map}'s meters.
     *
     * @param map the map, held weakly by the meters
     * @param name the value of the {@code name} tag, which tells this map's series from others'
     * @param extraTags more tags for every meter
     * @return the binder; {@link #bindTo} registers the meters
     * @throws NullPointerException if an argument is null, naming it
     * @throws IllegalArgumentException if {@code extraTags} holds a tag called {@code name}
     */
    public static ExpiringMapMetrics of(ExpiringMap<?, ?> map, String name, Iterable<Tag> extraTags) {
        return new ExpiringMapMetrics(MetricTags.require(map, "map"), MetricTags.of(name, extraTags));
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Gauge.builder("hourglass.expiring.map.size", map, ExpiringMap::estimatedSize)
                .tags(tags)
                .description("entries held: live, or expired and not yet purged")
                .register(registry);
        FunctionCounter.builder("hourglass.expiring.map.expirations", map, ExpiringMap::expirations)
                .tags(tags)
                .description("entries expired, each reported to the expiry listener")
                .register(registry);
    }

    @Override
    public String toString() {
        return "ExpiringMapMetrics[" + tags + "]";
    }
}
