/**
 * Nanosecond clocks: {@link dev.hourglass.time.NanoClock#system()} for production and {@link
 * dev.hourglass.time.ManualNanoClock} for tests and simulations, so nothing that takes a clock ever
 * has to sleep in a test.
 */
package dev.hourglass.time;
