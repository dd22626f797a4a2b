package dev.hourglass.patterns;

import dev.hourglass.timer.Timeout;

/**
 * The cooldown state of one ability of one entity, guarded by its {@link CooldownEntity}'s lock.
 * Charges recharge one at a time: while {@code charges < max}, the next charge comes back at {@code
 * readyAt}, and each one after it a full cooldown later.
 *
 * <p>Complexity: O(1) per operation. Ordering: not applicable.
 *
 * <p>Thread-safety: fields only under the owner's lock; {@link #run()} is the timer's entry point.
 *
 * @param <E> the entity type
 */
final class CooldownSlot<E> implements Runnable {

    final CooldownEntity<E> owner;
    final CooldownAbility ability;
    int charges;
    long readyAt;
    /** Charges that came back but whose listener call has not been made yet. */
    int unannounced;

    Timeout timeout;
    /** The clock reading the timeout was last armed for; valid while timeout is not null. */
    long armedFor;

    CooldownSlot(CooldownEntity<E> owner, CooldownAbility ability) {
        this.owner = owner;
        this.ability = ability;
        this.charges = ability.charges;
    }

    /**
     * Counts the charges that have come back by {@code now}: exact whether or not the timer fired.
     *
     * @param now the clock reading
     */
    void settle(long now) {
        if (charges < ability.charges) {
            long late = now - readyAt;
            if (late >= 0) {
                long back = Math.min(ability.charges - charges, 1 + late / ability.cooldownNanos);
                charges += (int) back;
                unannounced += (int) back;
                readyAt += back * ability.cooldownNanos;
            }
        }
    }

    /**
     * Returns the time until the next charge at {@code now}, after {@link #settle}.
     *
     * @param now the clock reading
     * @return positive while recharging, else 0
     */
    long remaining(long now) {
        return charges < ability.charges ? readyAt - now : 0;
    }

    boolean idle() {
        return charges == ability.charges && unannounced == 0 && timeout == null;
    }

    @Override
    public void run() {
        owner.cooldowns.fire(this);
    }
}
