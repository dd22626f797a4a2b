package dev.hourglass.micrometer;

import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import java.util.Objects;

/**
 * The tags every binder puts on its meters: {@code name}, which tells bound instances apart, and
 * the user's extra tags; and the argument checks the binders' factories share.
 *
 * <p>Complexity: O(tags). Thread-safety: stateless.
 */
final class MetricTags {

    /** The tag that tells the series of several bound instances apart. */
    static final String NAME = "name";

    private MetricTags() {}

    /**
     * {@code name=name} plus {@code extraTags}; a null argument is refused by name, and an extra tag
     * called {@code name}, which would silently replace or be replaced, by its value.
     */
    static Tags of(String name, Iterable<Tag> extraTags) {
        require(name, "name");
        Tags extra = Tags.of(require(extraTags, "extraTags"));
        extra.stream().filter(tag -> tag.getKey().equals(NAME)).findAny().ifPresent(tag -> {
            throw new IllegalArgumentException(
                    "extraTags may not hold the tag '" + NAME + "' (the name argument sets it): " + tag);
        });
        return extra.and(NAME, name);
    }

    static <T> T require(T value, String argument) {
        return Objects.requireNonNull(value, argument);
    }
}
