/**
 * An I/O event loop that is also a {@link dev.hourglass.timer.Timer}: a {@link
 * java.nio.channels.Selector} reactor that drives its timers on its own thread, the nginx/redis
 * way.
 */
package dev.hourglass.loop;
