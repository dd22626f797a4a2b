/**
 * A {@link java.util.concurrent.ScheduledExecutorService} over an Hourglass {@link
 * dev.hourglass.timer.Timer}, for code that takes one (gRPC, Spring's {@code TaskScheduler},
 * Reactor, Caffeine's {@code Scheduler}): made by {@link dev.hourglass.executor.TimerExecutors}, it
 * keeps the contract of {@link java.util.concurrent.ScheduledThreadPoolExecutor} and runs tasks on
 * the timer's thread, a pool of yours or one virtual thread per task.
 */
package dev.hourglass.executor;
