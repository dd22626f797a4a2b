/**
 * What servers build on timers, each on the public {@link dev.hourglass.timer.Timer} API only: idle
 * detection, cooldowns, countdowns, an expiring map and timeouts for futures.
 */
package dev.hourglass.patterns;
