/** JMH benchmarks of every Hourglass structure and driver beside the anchors, and the shootout. */
package dev.hourglass.bench;
