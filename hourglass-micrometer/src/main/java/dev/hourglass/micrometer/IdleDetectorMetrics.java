package dev.hourglass.micrometer;

import dev.hourglass.patterns.IdleDetector;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * The meters of an {@link IdleDetector}, read when the registry is read:
 *
 * <table>
 *   <caption>Meters, each tagged {@code name} and the extra tags</caption>
 *   <tr><th>name</th><th>type</th><th>meaning</th></tr>
 *   <tr><td>{@code hourglass.idle.keys}</td><td>gauge</td><td>keys watched ({@link
 *       IdleDetector#size()})</td></tr>
 *   <tr><td>{@code hourglass.idle.detected}</td><td>function counter</td><td>times a key was found
 *       idle ({@link IdleDetector#detected()})</td></tr>
 * </table>
 *
 * <p>The meters hold the detector weakly, as Micrometer's function meters do.
 *
 * <p>Complexity: binding O(1); a read O(1) (the key count sums a few counter cells). Thread-safety:
 * immutable; meters may be read from any thread.
 */
public final class IdleDetectorMetrics implements MeterBinder {

    private final IdleDetector<?> detector;
    private final Tags tags;

    private IdleDetectorMetrics(IdleDetector<?> detector, Tags tags) {
        this.detector = detector;
        this.tags = tags;
    }

    /**
     * Makes the binder of {@code detector}'s meters.
     *
     * @param detector the detector, held weakly by the meters
     * @param name the value of the {@code name} tag, which tells this detector's series from others'
     * @param extraTags more tags for every meter
     * @return the binder; {@link #bindTo} registers the meters
     * @throws NullPointerException if an argument is null, naming it
     * @throws IllegalArgumentException if {@code extraTags} holds a tag called {@code name}
     */
    public static IdleDetectorMetrics of(IdleDetector<?> detector, String name, Iterable<Tag> extraTags) {
        return new IdleDetectorMetrics(MetricTags.require(detector, "detector"), MetricTags.of(name, extraTags));
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Gauge.builder("hourglass.idle.keys", detector, IdleDetector::size)
                .tags(tags)
                .description("keys watched")
                .register(registry);
        FunctionCounter.builder("hourglass.idle.detected", detector, IdleDetector::detected)
                .tags(tags)
                .description("times a key was found idle")
                .register(registry);
    }

    @Override
    public String toString() {
        return "IdleDetectorMetrics[" + tags + "]";
    }
}
