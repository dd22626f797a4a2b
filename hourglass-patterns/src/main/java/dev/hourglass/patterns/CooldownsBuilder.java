package dev.hourglass.patterns;

import dev.hourglass.time.NanoClock;
import dev.hourglass.timer.Timer;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Defines the abilities of a {@link Cooldowns} up front, then builds it.
 *
 * <pre>{@code
 * Cooldowns<UUID> cooldowns = Cooldowns.<UUID>builder(timer, clock)
 *         .ability("Fireball", Duration.ofSeconds(3), 2)
 *         .ability("Dash", Duration.ofSeconds(1))
 *         .listener((player, ability) -> send(player, ability + " ready"))
 *         .build();
 * }</pre>
 *
 * <p>Complexity: O(1) per ability. Ordering: abilities keep the order they were defined in.
 *
 * <p>Thread-safety: none; configure on one thread, then build.
 *
 * @param <E> the entity type
 */
public final class CooldownsBuilder<E> {

    private final Timer timer;
    private final NanoClock clock;
    private final Map<String, CooldownAbility> abilities = new LinkedHashMap<>();
    private CooldownListener<? super E> listener = (entity, ability) -> {};

    /** A positive duration in nanoseconds, saturated as the timer saturates its delays. */
    static long saturated(Duration duration) {
        return duration.compareTo(Duration.ofNanos(Timer.MAX_DELAY_NANOS)) > 0
                ? Timer.MAX_DELAY_NANOS
                : duration.toNanos();
    }

    CooldownsBuilder(Timer timer, NanoClock clock) {
        this.timer = Objects.requireNonNull(timer, "timer");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Defines an ability with one charge.
     *
     * @param name its name, unique, not null
     * @param cooldown the time from use until it is ready again, positive; longer
     *     than {@link Timer#MAX_DELAY_NANOS} saturates to it, as the timer's periods do
     * @return this builder
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if the name is taken or the cooldown is not positive
     */
    public CooldownsBuilder<E> ability(String name, Duration cooldown) {
        return ability(name, cooldown, 1);
    }

    /**
     * Defines an ability with {@code charges} charges that recharge one at a time: each spent charge
     * comes back {@code cooldown} after the previous one came back (or after the use, if none was
     * recharging).
     *
     * @param name its name, unique, not null
     * @param cooldown the recharge time of one charge, positive; longer than
     *     {@link Timer#MAX_DELAY_NANOS} saturates to it
     * @param charges how many uses it holds when ready, at least 1
     * @return this builder
     * @throws NullPointerException if {@code name} or {@code cooldown} is null
     * @throws IllegalArgumentException if the name is taken, the cooldown is not positive or {@code
     *     charges} is less than 1
     */
    public CooldownsBuilder<E> ability(String name, Duration cooldown, int charges) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(cooldown, "cooldown");
        if (cooldown.isNegative() || cooldown.isZero()) {
            throw new IllegalArgumentException("cooldown of " + name + " must be positive: " + cooldown);
        }
        if (charges < 1) {
            throw new IllegalArgumentException("charges of " + name + " must be at least 1: " + charges);
        }
        if (abilities.containsKey(name)) {
            throw new IllegalArgumentException("ability defined twice: " + name);
        }
        abilities.put(name, new CooldownAbility(name, abilities.size(), saturated(cooldown), charges));
        return this;
    }

    /**
     * Sets who hears about recharged charges; by default no one.
     *
     * @param listener called once per recharged charge, on the timer's thread
     * @return this builder
     * @throws NullPointerException if {@code listener} is null
     */
    public CooldownsBuilder<E> listener(CooldownListener<? super E> listener) {
        this.listener = Objects.requireNonNull(listener, "listener");
        return this;
    }

    /**
     * Builds the cooldowns; every entity starts with every ability ready.
     *
     * @return the cooldowns
     * @throws IllegalStateException if no ability was defined
     */
    public Cooldowns<E> build() {
        if (abilities.isEmpty()) {
            throw new IllegalStateException("no ability defined");
        }
        return new Cooldowns<>(timer, clock, abilities, listener);
    }
}
