/**
 * Queue-level JMH benchmarks: every single-threaded Hourglass structure beside Agrona's
 * DeadlineTimerWheel, driven by a simulated clock so the figures measure the structure alone.
 */
package dev.hourglass.bench.queue;
