/**
 * Hourglass patterns: what servers build on timers (idle detection, cooldowns, countdowns, an
 * expiring map, future timeouts). Its API takes core's {@code Timer} and {@code NanoClock}, so it
 * requires the core transitively.
 */
module dev.hourglass.patterns {
    requires transitive dev.hourglass.core;

    exports dev.hourglass.patterns;
}
