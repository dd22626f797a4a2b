package dev.hourglass.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Draws one PNG per workload and parameter group: the score against N, both axes logarithmic, one
 * line per structure or timer.
 *
 * <p>Complexity: O(measurements) plus rendering. Ordering: n/a. Thread-safety: one thread.
 */
final class Charts {

    private Charts() {}

    /**
     * Draws every chart into {@code dir}.
     *
     * @param results the shootout's results
     * @param dir the directory, created if needed
     * @return the files written, relative to {@code dir}'s parent, with their titles
     * @throws IOException if a file cannot be written
     */
    static List<Map.Entry<String, String>> write(Results results, Path dir) throws IOException {
        Files.createDirectories(dir);
        List<Map.Entry<String, String>> written = new ArrayList<>();
        for (Workload workload : Workloads.all()) {
            for (Map.Entry<Map<String, String>, List<Measurement>> group :
                    results.groups(workload).entrySet()) {
                List<Measurement> measured = group.getValue();
                String params = Format.params(group.getKey());
                String title = workload.title() + (params.isEmpty() ? "" : ", " + params);
                XYChart chart = new XYChartBuilder()
                        .width(900)
                        .height(560)
                        .title(title)
                        .xAxisTitle("timers (n)")
                        .yAxisTitle(workload.unit())
                        .build();
                chart.getStyler().setXAxisLogarithmic(true);
                chart.getStyler().setYAxisLogarithmic(true);
                chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
                int series = 0;
                for (String impl : Results.impls(measured)) {
                    List<Double> xs = new ArrayList<>();
                    List<Double> ys = new ArrayList<>();
                    for (long n : Results.ns(measured)) {
                        Optional<Measurement> m = Results.find(measured, impl, n);
                        if (m.isPresent() && m.get().ok() && m.get().score() > 0 && n > 0) {
                            xs.add((double) n);
                            ys.add(m.get().score());
                        }
                    }
                    if (!xs.isEmpty()) {
                        XYSeries line = chart.addSeries(impl, xs, ys);
                        line.setMarker(SeriesMarkers.CIRCLE);
                        if (workload.anchors().contains(impl)) {
                            line.setLineStyle(SeriesLines.DASH_DASH);
                        }
                        series++;
                    }
                }
                if (series == 0) {
                    continue;
                }
                String name = workload.id()
                        + group.getKey().entrySet().stream()
                                .map(e -> "-" + e.getKey() + e.getValue())
                                .reduce("", String::concat);
                BitmapEncoder.saveBitmap(chart, dir.resolve(name).toString(), BitmapEncoder.BitmapFormat.PNG);
                written.add(Map.entry(dir.getFileName() + "/" + name + ".png", title));
            }
        }
        return written;
    }
}
