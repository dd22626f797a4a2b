package dev.hourglass.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;
import javax.imageio.ImageIO;

/**
 * Draws the shootout's charts, one PNG per workload and parameter group: the score against the
 * swept parameter (N, or the producer threads), both axes logarithmic, with 99.9% error bars and
 * one line per structure or timer in its fixed {@link Palette} style. Driver-level workloads get a
 * second chart beside it: the CPU the timer's own threads spent per operation.
 *
 * <p>Complexity: O(measurements) plus rendering. Ordering: workloads in {@link Workloads} order.
 * Thread-safety: one thread.
 */
final class Charts {

    /**
     * A chart file.
     *
     * @param file the path relative to the report's folder, e.g. "charts/queue-request.png"
     * @param title the chart's title, which the report's section heading repeats
     * @param caption what it shows, for the image's alternative text
     */
    record Chart(String file, String title, String caption) {}

    private Charts() {}

    /**
     * Draws every chart into {@code dir}.
     *
     * @param results the shootout's results
     * @param dir the directory, created if needed
     * @return the files written, relative to {@code dir}'s parent, with their titles
     * @throws IOException if a file cannot be written
     */
    static List<Chart> write(Results results, Path dir) throws IOException {
        Files.createDirectories(dir);
        List<Chart> written = new ArrayList<>();
        for (Workload workload : Workloads.all()) {
            for (Map.Entry<Map<String, String>, List<Measurement>> group :
                    results.groups(workload).entrySet()) {
                String title = Report.title(workload, group.getKey());
                String name = workload.id()
                        + group.getKey().entrySet().stream()
                                .map(e -> "-" + e.getKey() + e.getValue())
                                .reduce("", String::concat);
                Optional<LogChart.Rendered> time =
                        render(workload, title, workload.unit(), group.getValue(), Measurement::score, true);
                if (time.isEmpty()) {
                    continue;
                }
                written.add(save(time.get(), dir, name, title, workload.unit()));
                if (workload.driver()) {
                    String cpuTitle = title + ": CPU of the timer's own threads";
                    Optional<LogChart.Rendered> cpu = render(
                            workload,
                            cpuTitle,
                            "CPU ns of the timer's threads per operation",
                            group.getValue(),
                            Measurement::driverCpu,
                            false);
                    if (cpu.isPresent()) {
                        written.add(save(cpu.get(), dir, name + "-cpu", title, "driver-thread CPU per operation"));
                    }
                }
            }
        }
        return written;
    }

    /**
     * Renders one chart of a group.
     *
     * @param workload the workload
     * @param title the title
     * @param yTitle the y axis's title
     * @param group the group's measurements
     * @param value what to plot
     * @param errorBars true to draw the score's error bars
     * @return the chart, or empty when no point is plottable
     */
    static Optional<LogChart.Rendered> render(
            Workload workload,
            String title,
            String yTitle,
            List<Measurement> group,
            ToDoubleFunction<Measurement> value,
            boolean errorBars) {
        List<LogChart.Series> series = new ArrayList<>();
        for (String impl : Results.impls(group)) {
            List<LogChart.Point> points = new ArrayList<>();
            for (long x : Results.xs(group)) {
                Optional<Measurement> m = Results.find(group, impl, x);
                if (m.isPresent() && m.get().ok() && value.applyAsDouble(m.get()) > 0 && x > 0) {
                    points.add(new LogChart.Point(
                            x, value.applyAsDouble(m.get()), errorBars ? m.get().error() : Double.NaN));
                }
            }
            if (!points.isEmpty()) {
                series.add(new LogChart.Series(impl, Palette.style(impl), points));
            }
        }
        if (series.isEmpty()) {
            return Optional.empty();
        }
        String xTitle = workload.sweepLabel() + ", log scale";
        return Optional.of(LogChart.render(
                title, xTitle, yTitle + ", log scale", workload.sweep().equals("threads"), series));
    }

    private static Chart save(LogChart.Rendered rendered, Path dir, String name, String title, String caption)
            throws IOException {
        ImageIO.write(rendered.image(), "png", dir.resolve(name + ".png").toFile());
        return new Chart(dir.getFileName() + "/" + name + ".png", title, caption);
    }
}
