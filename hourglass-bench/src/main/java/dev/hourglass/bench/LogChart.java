package dev.hourglass.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.Shape;
import java.awt.geom.AffineTransform;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Line2D;
import java.awt.geom.Path2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * Draws a log-log line chart with error bars: a major tick, a grid line and a label per decade on
 * both axes (or, for a sweep of a few small values such as thread counts, a tick per value on the
 * x axis), titled axes, one line per series in its {@link Palette} style, and a legend. Error bars
 * that leave the plot are cut at its edge and end in an arrow, so a huge error cannot squash the
 * data.
 *
 * <p>Complexity: O(points). Ordering: series in the given order. Thread-safety: one chart per
 * thread.
 */
final class LogChart {

    /** Width of every chart, in pixels. */
    static final int WIDTH = 1100;
    /** Height of every chart, in pixels. */
    static final int HEIGHT = 620;
    /** The smallest font size used, in points (pixels at 72 dpi). */
    static final int MIN_FONT = 13;

    private static final int LEFT = 100;
    private static final int TOP = 50;
    private static final int BOTTOM = 70;
    /** The legend's least width; a long series name widens it. */
    private static final int LEGEND = 330;
    /** From the plot's right edge to the legend. */
    private static final int LEGEND_GAP = 20;
    /** From the start of a legend line's sample to its name. */
    private static final int LEGEND_TEXT = 42;
    /** Room after the longest name, so that none touches the image's edge. */
    private static final int LEGEND_MARGIN = 12;

    private static final String ERROR_BARS = "99.9% error bars; ↑↓ cut at the edge";
    private static final Color GRID = new Color(0xdd, 0xdd, 0xdd);
    private static final Color MINOR = new Color(0xf0, 0xf0, 0xf0);

    /**
     * One point.
     *
     * @param x the swept value, positive
     * @param y the score, positive
     * @param error the 99.9% half-width, or NaN
     */
    record Point(double x, double y, double error) {}

    /**
     * One line.
     *
     * @param name the legend's text
     * @param style how it is drawn
     * @param points its points, ascending in x
     */
    record Series(String name, Palette.Style style, List<Point> points) {
        Series {
            points = List.copyOf(points);
        }
    }

    /**
     * What was drawn.
     *
     * @param image the picture
     * @param texts every text drawn on it: title, axis titles, tick labels, legend
     */
    record Rendered(BufferedImage image, List<String> texts) {}

    private final List<String> texts = new ArrayList<>();
    private Graphics2D g;
    private double xLow;
    private double xHigh;
    private double yLow;
    private double yHigh;
    private int plotRight;
    private int plotBottom;

    private LogChart() {}

    /**
     * Renders a chart.
     *
     * @param title the title
     * @param xTitle the x axis's title, with its unit
     * @param yTitle the y axis's title, with its unit
     * @param tickPerValue true to put an x tick at each value (thread counts) rather than per decade
     * @param series the lines; at least one point in all
     * @return the image and its texts
     * @throws IllegalArgumentException if there is no point, or a value is not positive
     */
    static Rendered render(String title, String xTitle, String yTitle, boolean tickPerValue, List<Series> series) {
        return new LogChart().draw(title, xTitle, yTitle, tickPerValue, series);
    }

    private Rendered draw(String title, String xTitle, String yTitle, boolean tickPerValue, List<Series> series) {
        TreeSet<Double> xs = new TreeSet<>();
        TreeSet<Double> ys = new TreeSet<>();
        for (Series s : series) {
            for (Point p : s.points()) {
                if (!(p.x() > 0) || !(p.y() > 0)) {
                    throw new IllegalArgumentException("a log chart needs positive values: " + s.name() + " " + p);
                }
                xs.add(p.x());
                ys.add(p.y());
            }
        }
        if (xs.isEmpty()) {
            throw new IllegalArgumentException("chart has no point: " + title);
        }
        xLow = Math.floor(Math.log10(xs.first()));
        xHigh = Math.ceil(Math.log10(xs.last()));
        if (tickPerValue) {
            // thread counts: a little room either side of the first and last value
            xLow = Math.log10(xs.first()) - 0.15;
            xHigh = Math.log10(xs.last()) + 0.15;
        } else if (xHigh == xLow) {
            xLow--;
            xHigh++;
        }
        yLow = Math.floor(Math.log10(ys.first()));
        yHigh = Math.ceil(Math.log10(ys.last()));
        if (yHigh == yLow) {
            yHigh++;
        }
        BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, WIDTH, HEIGHT);
            plotRight = WIDTH - legendWidth(series);
            plotBottom = HEIGHT - BOTTOM;
            g.setColor(Color.BLACK);
            g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 17));
            text(title, LEFT, TOP - 20);
            axes(xTitle, yTitle, tickPerValue ? xs : null);
            for (Series s : series) {
                line(s);
            }
            legend(series, series.stream().flatMap(s -> s.points().stream()).anyMatch(p -> p.error() > 0));
        } finally {
            g.dispose();
        }
        return new Rendered(image, List.copyOf(texts));
    }

    private void axes(String xTitle, String yTitle, TreeSet<Double> xTicks) {
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, MIN_FONT));
        FontMetrics metrics = g.getFontMetrics();
        boolean fewDecades = yHigh - yLow <= 2;
        for (int decade = (int) yLow; decade < yHigh; decade++) {
            for (int m = 2; m < 10; m++) {
                double value = m * Math.pow(10, decade);
                double y = py(value);
                g.setColor(MINOR);
                g.draw(new Line2D.Double(LEFT, y, plotRight, y));
                if (fewDecades && (m == 2 || m == 5)) {
                    // one or two decades leave room to read values between the decade labels
                    g.setColor(Color.DARK_GRAY);
                    g.draw(new Line2D.Double(LEFT - 3, y, LEFT, y));
                    String label =
                            decade >= 0 ? String.format(Locale.ROOT, "%,d", Math.round(value)) : Format.number(value);
                    text(label, LEFT - 8 - metrics.stringWidth(label), (int) y + metrics.getAscent() / 2 - 1);
                }
            }
        }
        for (int decade = (int) yLow; decade <= yHigh; decade++) {
            double y = py(Math.pow(10, decade));
            g.setColor(GRID);
            g.draw(new Line2D.Double(LEFT, y, plotRight, y));
            g.setColor(Color.BLACK);
            g.draw(new Line2D.Double(LEFT - 6, y, LEFT, y));
            String label = label(decade);
            text(label, LEFT - 10 - metrics.stringWidth(label), (int) y + metrics.getAscent() / 2 - 1);
        }
        List<Double> ticks = new ArrayList<>();
        if (xTicks != null) {
            ticks.addAll(xTicks);
        } else {
            for (int decade = (int) xLow; decade <= xHigh; decade++) {
                ticks.add(Math.pow(10, decade));
                if (decade < xHigh) {
                    for (int m = 2; m < 10; m++) {
                        double x = px(m * Math.pow(10, decade));
                        g.setColor(MINOR);
                        g.draw(new Line2D.Double(x, TOP, x, plotBottom));
                    }
                }
            }
        }
        for (double tick : ticks) {
            double x = px(tick);
            g.setColor(GRID);
            g.draw(new Line2D.Double(x, TOP, x, plotBottom));
            g.setColor(Color.BLACK);
            g.draw(new Line2D.Double(x, plotBottom, x, plotBottom + 6));
            int decade = (int) Math.round(Math.log10(tick));
            String label = xTicks != null
                    ? String.format(Locale.ROOT, "%,d", Math.round(tick))
                    : decade >= 3 ? "1e" + decade : label(decade);
            text(label, (int) x - metrics.stringWidth(label) / 2, plotBottom + 8 + metrics.getAscent());
        }
        g.setColor(Color.BLACK);
        g.setStroke(new BasicStroke(1.2f));
        g.drawRect(LEFT, TOP, plotRight - LEFT, plotBottom - TOP);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
        metrics = g.getFontMetrics();
        text(xTitle, (LEFT + plotRight - metrics.stringWidth(xTitle)) / 2, HEIGHT - 18);
        AffineTransform saved = g.getTransform();
        g.rotate(-Math.PI / 2);
        text(yTitle, -(TOP + plotBottom + metrics.stringWidth(yTitle)) / 2, 24);
        g.setTransform(saved);
    }

    private void line(Series s) {
        Palette.Style style = s.style();
        g.setColor(style.colour());
        BasicStroke solid = new BasicStroke(2f);
        g.setStroke(
                style.dash() == null
                        ? solid
                        : new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, style.dash(), 0f));
        Path2D path = new Path2D.Double();
        boolean first = true;
        for (Point p : s.points()) {
            if (first) {
                path.moveTo(px(p.x()), py(p.y()));
                first = false;
            } else {
                path.lineTo(px(p.x()), py(p.y()));
            }
        }
        g.draw(path);
        g.setStroke(new BasicStroke(1.4f));
        for (Point p : s.points()) {
            if (p.error() > 0) {
                errorBar(p);
            }
            g.fill(marker(style.marker(), px(p.x()), py(p.y()), 5));
        }
    }

    private void errorBar(Point p) {
        double x = px(p.x());
        double top = p.y() + p.error();
        double bottom = p.y() - p.error();
        double yTop = Math.max(TOP, py(top));
        double yBottom = bottom <= 0 ? plotBottom : Math.min(plotBottom, py(bottom));
        g.draw(new Line2D.Double(x, yTop, x, yBottom));
        cap(x, yTop, yTop == TOP && py(top) < TOP, -1);
        cap(x, yBottom, yBottom == plotBottom && (bottom <= 0 || py(bottom) > plotBottom), 1);
    }

    private void cap(double x, double y, boolean clipped, int direction) {
        if (clipped) {
            g.draw(new Line2D.Double(x - 4, y - 6 * direction, x, y));
            g.draw(new Line2D.Double(x + 4, y - 6 * direction, x, y));
        } else {
            g.draw(new Line2D.Double(x - 5, y, x + 5, y));
        }
    }

    /** The legend's share of the width: at least {@link #LEGEND}, more if a name needs it, at most half. */
    private int legendWidth(List<Series> series) {
        FontMetrics metrics = g.getFontMetrics(new Font(Font.SANS_SERIF, Font.PLAIN, MIN_FONT));
        int widest = metrics.stringWidth(ERROR_BARS);
        for (Series s : series) {
            widest = Math.max(widest, LEGEND_TEXT + metrics.stringWidth(s.name()));
        }
        return Math.min(WIDTH / 2, Math.max(LEGEND, LEGEND_GAP + widest + LEGEND_MARGIN));
    }

    private void legend(List<Series> series, boolean errorBars) {
        int x = plotRight + LEGEND_GAP;
        int y = TOP + 4;
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, MIN_FONT));
        FontMetrics metrics = g.getFontMetrics();
        g.setColor(Color.BLACK);
        if (errorBars) {
            text(ERROR_BARS, x, y + metrics.getAscent());
            y += metrics.getHeight() + 8;
        }
        for (Series s : series) {
            Palette.Style style = s.style();
            g.setColor(style.colour());
            g.setStroke(
                    style.dash() == null
                            ? new BasicStroke(2f)
                            : new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, style.dash(), 0f));
            double mid = y + metrics.getAscent() / 2.0;
            g.draw(new Line2D.Double(x, mid, x + 34, mid));
            g.fill(marker(style.marker(), x + 17, mid, 5));
            g.setColor(Color.BLACK);
            text(s.name(), x + LEGEND_TEXT, y + metrics.getAscent());
            y += metrics.getHeight() + 6;
        }
    }

    private static Shape marker(Palette.Marker marker, double x, double y, double r) {
        switch (marker) {
            case SQUARE:
                return new Rectangle2D.Double(x - r, y - r, 2 * r, 2 * r);
            case DIAMOND:
                Path2D diamond = new Path2D.Double();
                diamond.moveTo(x, y - r - 1);
                diamond.lineTo(x + r + 1, y);
                diamond.lineTo(x, y + r + 1);
                diamond.lineTo(x - r - 1, y);
                diamond.closePath();
                return diamond;
            default:
                return new Ellipse2D.Double(x - r, y - r, 2 * r, 2 * r);
        }
    }

    private void text(String text, int x, int y) {
        g.drawString(text, x, y);
        texts.add(text);
    }

    private double px(double x) {
        return LEFT + (Math.log10(x) - xLow) / (xHigh - xLow) * (plotRight - LEFT);
    }

    private double py(double y) {
        return plotBottom - (Math.log10(y) - yLow) / (yHigh - yLow) * (plotBottom - TOP);
    }

    /** 10^decade as 0.01, 0.1, 1, 10, 100, 1,000, 10,000, then 1e5, 1e6, ... */
    static String label(int decade) {
        if (decade < 0) {
            return String.format(Locale.ROOT, "%." + -decade + "f", Math.pow(10, decade));
        }
        if (decade <= 4) {
            return String.format(Locale.ROOT, "%,d", (long) Math.pow(10, decade));
        }
        return "1e" + decade;
    }
}
