/**
 * Expiring maps side by side: Hourglass's {@link dev.hourglass.patterns.ExpiringMap} and Caffeine
 * with variable expiry ({@code expireAfter} and {@code policy().expireVariably().put}), each behind
 * a trivial {@link dev.hourglass.bench.map.MapUnderTest} adapter chosen by the JMH parameter {@code
 * impl}: put of a live key and get at one and two threads, the CPU each spends per expired entry,
 * and the bytes each holds per entry ({@link dev.hourglass.bench.map.MapFootprint}).
 *
 * <p>Every benchmark reports the CPU time of the map's own background threads (Hourglass's timer
 * thread, Caffeine's maintenance executor and scheduler) per operation ({@code workerCpuNanos}),
 * beside the caller's figure.
 */
package dev.hourglass.bench.map;
