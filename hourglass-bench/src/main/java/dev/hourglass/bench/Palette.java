package dev.hourglass.bench;

import java.awt.Color;
import java.util.Map;

/**
 * One look per library across every chart: a fixed colour per Hourglass structure and per anchor
 * library, whatever else a chart shows. Hourglass series are solid with round markers; the anchors
 * (Agrona, Netty, Kafka, the JDK) are dashed with square markers; a variant of a library (the event
 * loop driver, the JDK executor keeping cancelled tasks) keeps its library's colour and differs in
 * line and marker.
 *
 * <p>Complexity: O(1). Ordering: n/a. Thread-safety: immutable.
 */
final class Palette {

    /** The marker drawn at each point. */
    enum Marker {
        /** Hourglass's timer-thread driver and queues. */
        CIRCLE,
        /** An anchor library. */
        SQUARE,
        /** A variant: Hourglass's event loop, the JDK executor keeping cancelled tasks. */
        DIAMOND
    }

    /**
     * How one series is drawn.
     *
     * @param colour the line's and markers' colour
     * @param dash the dash pattern, or null for a solid line
     * @param marker the marker
     */
    record Style(Color colour, float[] dash, Marker marker) {}

    private static final float[] DASHED = {9f, 5f};
    private static final float[] DOTTED = {2.5f, 4f};

    /** Colours by library: the ten structures, then the anchors; chosen to tell apart in print. */
    private static final Map<String, Color> COLOURS = Map.ofEntries(
            Map.entry("UNSORTED_LIST", new Color(0x8c, 0x56, 0x4b)),
            Map.entry("SORTED_LIST", new Color(0xbc, 0xbd, 0x22)),
            Map.entry("RED_BLACK_TREE", new Color(0xd6, 0x27, 0x28)),
            Map.entry("BINARY_HEAP", new Color(0x94, 0x67, 0xbd)),
            Map.entry("QUATERNARY_HEAP", new Color(0xe3, 0x77, 0xc2)),
            Map.entry("SKIP_LIST", new Color(0x17, 0xbe, 0xcf)),
            Map.entry("SIMPLE_WHEEL", new Color(0x2c, 0xa0, 0x2c)),
            Map.entry("HASHED_WHEEL", new Color(0x98, 0xdf, 0x8a)),
            Map.entry("SORTED_HASHED_WHEEL", new Color(0x1f, 0x4e, 0x5f)),
            Map.entry("HIERARCHICAL_WHEEL", new Color(0x1f, 0x77, 0xb4)),
            Map.entry("AGRONA", new Color(0xff, 0x7f, 0x0e)),
            Map.entry("NETTY", new Color(0x00, 0x00, 0x00)),
            Map.entry("KAFKA", new Color(0x7f, 0x7f, 0x7f)),
            Map.entry("JDK", new Color(0xb0, 0x6b, 0x00)));

    private static final Color UNKNOWN = new Color(0x55, 0x55, 0x55);

    private Palette() {}

    /**
     * Returns how a series is drawn.
     *
     * @param impl the benchmark's {@code impl} value, e.g. HIERARCHICAL_WHEEL,
     *     HOURGLASS_LOOP_HIERARCHICAL_WHEEL, NETTY_HASHED_WHEEL
     * @return its style, the same in every chart
     */
    static Style style(String impl) {
        String library = library(impl);
        Color colour = COLOURS.getOrDefault(library, UNKNOWN);
        boolean anchor =
                library.equals("AGRONA") || library.equals("NETTY") || library.equals("KAFKA") || library.equals("JDK");
        boolean variant = impl.startsWith("HOURGLASS_LOOP_") || impl.equals("JDK_STPE_KEEP_CANCELLED");
        if (variant) {
            return new Style(colour, anchor ? DOTTED : DASHED, Marker.DIAMOND);
        }
        return new Style(colour, anchor ? DASHED : null, anchor ? Marker.SQUARE : Marker.CIRCLE);
    }

    /**
     * Returns the library (or Hourglass structure) an {@code impl} value belongs to.
     *
     * @param impl the benchmark's {@code impl} value
     * @return e.g. HIERARCHICAL_WHEEL for HOURGLASS_LOOP_HIERARCHICAL_WHEEL, NETTY for
     *     NETTY_HASHED_WHEEL
     */
    static String library(String impl) {
        if (impl.startsWith("HOURGLASS_LOOP_")) {
            return impl.substring("HOURGLASS_LOOP_".length());
        }
        if (impl.startsWith("HOURGLASS_")) {
            return impl.substring("HOURGLASS_".length());
        }
        for (String anchor : new String[] {"NETTY", "KAFKA", "JDK", "AGRONA"}) {
            if (impl.equals(anchor) || impl.startsWith(anchor + "_")) {
                return anchor;
            }
        }
        return impl;
    }
}
