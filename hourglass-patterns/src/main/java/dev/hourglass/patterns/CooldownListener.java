package dev.hourglass.patterns;

/**
 * Hears that a charge of an ability came back to an entity, as the {@link Cooldowns} timer sees it.
 *
 * <p>Called once per recharged charge, whether the charge came back because its cooldown ran out or
 * because a {@linkplain Cooldowns#reduce reduction} finished it; not called by {@link
 * Cooldowns#reset} or {@link Cooldowns#forget}, which the caller asked for. An ability with three
 * charges that all recharge hears three calls.
 *
 * <p>Complexity: whatever the implementation costs; it runs on the timer's thread (or its executor),
 * so it should be short. Ordering: calls for one (entity, ability) follow the recharges' order.
 *
 * <p>Thread-safety: called on the timer's thread or its executor, never while a lock of the {@link
 * Cooldowns} is held, so it may call back into it.
 *
 * @param <E> the entity type
 */
@FunctionalInterface
public interface CooldownListener<E> {

    /**
     * Reports that one charge of {@code ability} is available again to {@code entity}.
     *
     * @param entity the entity whose charge came back
     * @param ability the ability's name
     */
    void recharged(E entity, String ability);
}
