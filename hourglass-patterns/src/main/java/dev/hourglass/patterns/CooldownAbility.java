package dev.hourglass.patterns;

/**
 * One ability as defined in a {@link CooldownsBuilder}: its name, cooldown per charge and number of
 * charges.
 *
 * <p>Complexity: O(1). Ordering: not applicable. Thread-safety: immutable.
 */
final class CooldownAbility {

    final String name;
    final int index;
    final long cooldownNanos;
    final int charges;

    CooldownAbility(String name, int index, long cooldownNanos, int charges) {
        this.name = name;
        this.index = index;
        this.cooldownNanos = cooldownNanos;
        this.charges = charges;
    }
}
