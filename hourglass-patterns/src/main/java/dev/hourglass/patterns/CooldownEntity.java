package dev.hourglass.patterns;

/**
 * The cooldowns of one entity: one {@link CooldownSlot} per ability, all guarded by this object's
 * monitor. It lives in the {@link Cooldowns} map only while some ability is recharging; once every
 * ability is full again it is retired and removed, so an idle entity costs nothing.
 *
 * <p>Complexity: O(abilities) to create. Ordering: not applicable.
 *
 * <p>Thread-safety: every field is read and written under this object's monitor, except the final
 * ones.
 *
 * @param <E> the entity type
 */
final class CooldownEntity<E> {

    final Cooldowns<E> cooldowns;
    final E key;
    final CooldownSlot<E>[] slots;
    /** Set when removed from the map; a thread that finds it set looks the entity up again. */
    boolean retired;

    @SuppressWarnings("unchecked")
    CooldownEntity(Cooldowns<E> cooldowns, E key, CooldownAbility[] abilities) {
        this.cooldowns = cooldowns;
        this.key = key;
        this.slots = (CooldownSlot<E>[]) new CooldownSlot<?>[abilities.length];
        for (int i = 0; i < abilities.length; i++) {
            slots[i] = new CooldownSlot<>(this, abilities[i]);
        }
    }

    boolean idle() {
        for (CooldownSlot<E> slot : slots) {
            if (!slot.idle()) {
                return false;
            }
        }
        return true;
    }
}
