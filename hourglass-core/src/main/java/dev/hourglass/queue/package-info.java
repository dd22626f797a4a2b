/**
 * Timer queues: one interface, {@link dev.hourglass.queue.TimerQueue}, and every structure of the
 * classic timer literature behind it, made by {@link dev.hourglass.queue.TimerQueues}.
 *
 * <p>Queues are single-threaded and never read a clock: the caller passes {@code now}. Drivers
 * build thread-safe timers on top.
 */
package dev.hourglass.queue;
