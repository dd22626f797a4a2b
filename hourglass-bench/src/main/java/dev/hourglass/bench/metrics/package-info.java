/** The cost of reading Hourglass's meters through Micrometer. */
package dev.hourglass.bench.metrics;
