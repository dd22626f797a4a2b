package dev.hourglass.patterns;

import dev.hourglass.time.NanoClock;
import dev.hourglass.timer.Timer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Skill and weapon cooldowns per (entity, ability): try to use an ability, and learn either that it
 * was used or how long until its next charge; abilities with several charges that recharge one at a
 * time; cooldown reduction and reset; a {@link CooldownListener} told of each recharged charge.
 *
 * <pre>{@code
 * CooldownResult fireball = cooldowns.tryUse(player, "Fireball");
 * if (!fireball.used()) {
 *     tell(player, "Fireball ready in " + fireball.remaining());
 * }
 * }</pre>
 *
 * <p>Exact: whether an ability is ready is decided by comparing the clock with the recorded ready
 * time, never by whether the timer has fired yet, so a late timer delays only the listener. A use at
 * exactly the ready instant succeeds.
 *
 * <p>Memory: an entity is tracked only while one of its abilities is recharging (or a listener call
 * is due); the timer holds one timeout per recharging ability, and none once every charge is back.
 * {@link #forget} drops an entity at once, cancelling its timeouts.
 *
 * <p>Complexity: every operation but {@link #close()} (O(entities)) is O(1) plus a hash lookup of
 * the entity and of the ability name, and at most one timer schedule or reschedule; the first use
 * of a full entity allocates its state (O(abilities)).
 *
 * <p>Ordering: operations on one entity are linearised by that entity's lock; listener calls for one
 * (entity, ability) follow the order of the recharges.
 *
 * <p>Thread-safety: every method may be called from any thread, including from the listener;
 * operations on different entities do not contend (one lock per entity), so a game loop thread, the
 * timer thread and network threads can share one instance. The listener runs on the timer's thread
 * (or executor), outside every lock.
 *
 * @param <E> the entity type: anything with equals and hashCode, such as a player id
 */
public final class Cooldowns<E> implements AutoCloseable {

    private final Timer timer;
    private final NanoClock clock;
    private final Map<String, CooldownAbility> abilities;
    private final CooldownAbility[] ordered;
    private final CooldownListener<? super E> listener;
    private final ConcurrentHashMap<E, CooldownEntity<E>> entities = new ConcurrentHashMap<>();
    private final Function<E, CooldownEntity<E>> newEntity;
    private volatile boolean closed;

    Cooldowns(
            Timer timer,
            NanoClock clock,
            Map<String, CooldownAbility> abilities,
            CooldownListener<? super E> listener) {
        this.timer = timer;
        this.clock = clock;
        this.abilities = Collections.unmodifiableMap(new LinkedHashMap<>(abilities));
        this.ordered = abilities.values().toArray(new CooldownAbility[0]);
        this.listener = listener;
        this.newEntity = key -> new CooldownEntity<>(this, key, ordered);
    }

    /**
     * Starts defining cooldowns that schedule on {@code timer} and read {@code clock}.
     *
     * @param timer the timer that calls the listener, not null
     * @param clock the timer's clock, not null
     * @param <E> the entity type
     * @return a builder
     * @throws NullPointerException if an argument is null
     */
    public static <E> CooldownsBuilder<E> builder(Timer timer, NanoClock clock) {
        return new CooldownsBuilder<>(timer, clock);
    }

    /**
     * Returns the names of the abilities, in the order they were defined.
     *
     * @return an unmodifiable list
     */
    public List<String> abilities() {
        return List.copyOf(abilities.keySet());
    }

    /**
     * Returns the cooldown of one charge of {@code ability}.
     *
     * @param ability a defined ability
     * @return its cooldown
     * @throws NullPointerException if {@code ability} is null
     * @throws IllegalArgumentException if {@code ability} is not defined
     */
    public Duration cooldown(String ability) {
        return Duration.ofNanos(ability(ability).cooldownNanos);
    }

    /**
     * Returns how many charges {@code ability} holds when ready.
     *
     * @param ability a defined ability
     * @return at least 1
     * @throws NullPointerException if {@code ability} is null
     * @throws IllegalArgumentException if {@code ability} is not defined
     */
    public int maxCharges(String ability) {
        return ability(ability).charges;
    }

    /**
     * Uses {@code ability} for {@code entity} if a charge is available: spends it and, if no charge
     * was recharging, starts the cooldown from now.
     *
     * @param entity who uses it, not null
     * @param ability a defined ability
     * @return whether it was used, the charges left and the time until the next charge
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if {@code ability} is not defined
     * @throws IllegalStateException if closed, or if the timer is closed (the use still counts, but
     *     no listener call will come for it)
     */
    public CooldownResult tryUse(E entity, String ability) {
        Objects.requireNonNull(entity, "entity");
        CooldownAbility definition = ability(ability);
        while (true) {
            checkOpen();
            CooldownEntity<E> state = entities.computeIfAbsent(entity, newEntity);
            synchronized (state) {
                if (state.retired) {
                    continue;
                }
                if (closed) {
                    // Lost a race with close(): leave nothing behind.
                    entities.remove(entity, state);
                    drop(state);
                    checkOpen();
                }
                CooldownSlot<E> slot = state.slots[definition.index];
                long now = clock.nanoTime();
                slot.settle(now);
                CooldownResult result;
                if (slot.charges == 0) {
                    result = new CooldownResult(false, 0, slot.remaining(now));
                } else {
                    if (slot.charges == definition.charges) {
                        slot.readyAt = now + definition.cooldownNanos;
                    }
                    slot.charges--;
                    result = new CooldownResult(true, slot.charges, slot.remaining(now));
                }
                arm(slot, now);
                retireIfIdle(state);
                return result;
            }
        }
    }

    /**
     * Returns the time until the next charge of {@code ability} comes back to {@code entity}.
     *
     * @param entity the entity, not null
     * @param ability a defined ability
     * @return positive while a charge is recharging, {@link Duration#ZERO} when all are available
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if {@code ability} is not defined
     * @throws IllegalStateException if closed
     */
    public Duration remaining(E entity, String ability) {
        Objects.requireNonNull(entity, "entity");
        CooldownAbility definition = ability(ability);
        checkOpen();
        CooldownEntity<E> state = entities.get(entity);
        if (state == null) {
            return Duration.ZERO;
        }
        synchronized (state) {
            if (state.retired) {
                return Duration.ZERO;
            }
            CooldownSlot<E> slot = state.slots[definition.index];
            long now = clock.nanoTime();
            slot.settle(now);
            return Duration.ofNanos(slot.remaining(now));
        }
    }

    /**
     * Returns how many charges of {@code ability} {@code entity} can use now.
     *
     * @param entity the entity, not null
     * @param ability a defined ability
     * @return from 0 to {@link #maxCharges}
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if {@code ability} is not defined
     * @throws IllegalStateException if closed
     */
    public int charges(E entity, String ability) {
        Objects.requireNonNull(entity, "entity");
        CooldownAbility definition = ability(ability);
        checkOpen();
        CooldownEntity<E> state = entities.get(entity);
        if (state == null) {
            return definition.charges;
        }
        synchronized (state) {
            if (state.retired) {
                return definition.charges;
            }
            CooldownSlot<E> slot = state.slots[definition.index];
            slot.settle(clock.nanoTime());
            return slot.charges;
        }
    }

    /**
     * Shortens the charge of {@code ability} now recharging by {@code by}. A reduction at least as
     * long as the time left completes that charge now (the listener hears of it) and the rest of the
     * reduction is dropped: the next missing charge, if any, starts a full cooldown from now. Does
     * nothing when every charge is available.
     *
     * @param entity the entity, not null
     * @param ability a defined ability
     * @param by how much to take off, not negative
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if {@code ability} is not defined or {@code by} is negative
     * @throws IllegalStateException if closed
     */
    public void reduce(E entity, String ability, Duration by) {
        Objects.requireNonNull(entity, "entity");
        CooldownAbility definition = ability(ability);
        Objects.requireNonNull(by, "by");
        if (by.isNegative()) {
            throw new IllegalArgumentException("by must not be negative: " + by);
        }
        long byNanos = by.compareTo(Duration.ofNanos(Long.MAX_VALUE)) > 0 ? Long.MAX_VALUE : by.toNanos();
        checkOpen();
        CooldownEntity<E> state = entities.get(entity);
        if (state == null) {
            return;
        }
        synchronized (state) {
            if (state.retired) {
                return;
            }
            CooldownSlot<E> slot = state.slots[definition.index];
            long now = clock.nanoTime();
            slot.settle(now);
            if (slot.charges < definition.charges) {
                long left = slot.readyAt - now;
                slot.readyAt = byNanos >= left ? now : slot.readyAt - byNanos;
                slot.settle(now);
            }
            arm(slot, now);
            retireIfIdle(state);
        }
    }

    /**
     * Makes every charge of {@code ability} available to {@code entity} now and cancels its
     * recharge. The listener is not called for the charges this gives back, only for any that had
     * already come back by the clock before the reset.
     *
     * @param entity the entity, not null
     * @param ability a defined ability
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if {@code ability} is not defined
     * @throws IllegalStateException if closed
     */
    public void reset(E entity, String ability) {
        Objects.requireNonNull(entity, "entity");
        CooldownAbility definition = ability(ability);
        checkOpen();
        CooldownEntity<E> state = entities.get(entity);
        if (state == null) {
            return;
        }
        synchronized (state) {
            if (state.retired) {
                return;
            }
            CooldownSlot<E> slot = state.slots[definition.index];
            long now = clock.nanoTime();
            slot.settle(now);
            slot.charges = definition.charges;
            arm(slot, now);
            retireIfIdle(state);
        }
    }

    /**
     * Drops everything known about {@code entity} and cancels its timeouts: every ability is ready
     * again, and the listener hears nothing more about it (a call already under way may finish).
     *
     * @param entity the entity, not null
     * @throws NullPointerException if {@code entity} is null
     * @throws IllegalStateException if closed
     */
    public void forget(E entity) {
        Objects.requireNonNull(entity, "entity");
        checkOpen();
        CooldownEntity<E> state = entities.remove(entity);
        if (state != null) {
            synchronized (state) {
                drop(state);
            }
        }
    }

    /**
     * Returns how many entities have an ability recharging (or a listener call due); the others take
     * no memory.
     *
     * @return the count
     * @throws IllegalStateException if closed
     */
    public int activeEntities() {
        checkOpen();
        return entities.size();
    }

    /**
     * Cancels every timeout and drops every entity; every other method then throws {@link
     * IllegalStateException}. The timer is not closed. A second call does nothing.
     */
    public void close() {
        closed = true;
        List<CooldownEntity<E>> all = new ArrayList<>(entities.values());
        for (CooldownEntity<E> state : all) {
            entities.remove(state.key, state);
            synchronized (state) {
                drop(state);
            }
        }
    }

    /** The timer's entry point for one slot: counts what came back, re-arms, then tells the listener. */
    void fire(CooldownSlot<E> slot) {
        CooldownEntity<E> state = slot.owner;
        int announce;
        synchronized (state) {
            if (state.retired || closed) {
                return;
            }
            long now = clock.nanoTime();
            slot.settle(now);
            announce = slot.unannounced;
            slot.unannounced = 0;
            arm(slot, now);
            retireIfIdle(state);
        }
        for (int i = 0; i < announce; i++) {
            listener.recharged(state.key, slot.ability.name);
        }
    }

    /**
     * Points the slot's timeout at the moment something next happens to it: now if a listener call is
     * due, the ready time while recharging, nowhere once full. Under the owner's lock.
     */
    private void arm(CooldownSlot<E> slot, long now) {
        long target;
        if (slot.unannounced > 0) {
            target = now;
        } else if (slot.charges < slot.ability.charges) {
            target = slot.readyAt;
        } else {
            if (slot.timeout != null) {
                slot.timeout.cancel();
                slot.timeout = null;
            }
            return;
        }
        if (slot.timeout != null
                && slot.armedFor == target
                && !slot.timeout.isExpired()
                && !slot.timeout.isCancelled()) {
            return;
        }
        long delay = Math.max(0, target - now);
        if (slot.timeout == null || !slot.timeout.reschedule(delay, TimeUnit.NANOSECONDS)) {
            slot.timeout = timer.schedule(slot, delay, TimeUnit.NANOSECONDS);
        }
        slot.armedFor = target;
    }

    private void retireIfIdle(CooldownEntity<E> state) {
        if (state.idle()) {
            state.retired = true;
            entities.remove(state.key, state);
        }
    }

    private static <E> void drop(CooldownEntity<E> state) {
        state.retired = true;
        for (CooldownSlot<E> slot : state.slots) {
            if (slot.timeout != null) {
                slot.timeout.cancel();
                slot.timeout = null;
            }
        }
    }

    private CooldownAbility ability(String name) {
        Objects.requireNonNull(name, "ability");
        CooldownAbility definition = abilities.get(name);
        if (definition == null) {
            throw new IllegalArgumentException("unknown ability: " + name + " (defined: " + abilities.keySet() + ")");
        }
        return definition;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("cooldowns are closed");
        }
    }
}
