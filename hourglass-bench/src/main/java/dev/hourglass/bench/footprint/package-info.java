/**
 * Footprint: the heap each structure and each anchor retains per pending timer and per cancelled
 * timer it still holds, measured as used heap after a full collection.
 */
package dev.hourglass.bench.footprint;
