/** Durable distributed timers on Redis: timers that survive restarts and are shared by many nodes. */
package dev.hourglass.redis;
