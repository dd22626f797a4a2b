/**
 * Driver-level benchmarks: thread-safe timers side by side. Hourglass's timer-thread and event-loop
 * drivers, Netty's {@code HashedWheelTimer}, Kafka's {@code SystemTimer} with its reaper and the
 * JDK's {@code ScheduledThreadPoolExecutor}, each behind a trivial {@link
 * dev.hourglass.bench.driver.TimerUnderTest} adapter chosen by the JMH parameter {@code impl}.
 *
 * <p>Every benchmark also reports the CPU time its timer's background threads used during the
 * measured iteration, per operation ({@code workerCpuNanos}) and as a share of one core ({@code
 * workerCpuLoad}): a caller-side ns/op alone hides the work a worker thread does on another core.
 */
package dev.hourglass.bench.driver;
