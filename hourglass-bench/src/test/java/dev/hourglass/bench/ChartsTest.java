package dev.hourglass.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Renders every chart of a fixed run and checks that each is non-empty and legible. */
class ChartsTest {

    @TempDir
    Path dir;

    @Test
    void everyChartIsLargeFilledAndLabelled() throws IOException {
        System.setProperty("java.awt.headless", "true");
        Results results = Fixtures.results(Fixtures.THREE_FORKS);

        List<Charts.Chart> charts = Charts.write(results, dir.resolve("charts"));

        assertThat(charts)
                .extracting(Charts.Chart::file)
                .contains(
                        "charts/queue-heartbeat-k10.png",
                        "charts/queue-request.png",
                        "charts/queue-fire-one-tick.png",
                        "charts/driver-heartbeat-k10.png",
                        "charts/driver-heartbeat-k10-cpu.png",
                        "charts/driver-contention-n10000.png");
        for (Charts.Chart chart : charts) {
            BufferedImage image = ImageIO.read(dir.resolve(chart.file()).toFile());
            assertThat(image.getWidth()).as(chart.file()).isEqualTo(LogChart.WIDTH);
            assertThat(image.getHeight()).as(chart.file()).isEqualTo(LogChart.HEIGHT);
            assertThat(inkShare(image))
                    .as(chart.file() + ": share of non-white pixels")
                    .isBetween(0.03, 0.6);
        }
    }

    @Test
    void aSizeSweepHasATickAndLabelPerDecadeOnBothAxesAndTitledAxes() {
        Workload workload = Workloads.all().get(0);
        List<Measurement> group = Fixtures.results(Fixtures.THREE_FORKS).of(workload);

        LogChart.Rendered chart = Charts.render(workload, "Heartbeat", workload.unit(), group, Measurement::score, true)
                .orElseThrow();

        // four sizes, a decade each; scores from 30 to 700 ns: 10, 100 and 1,000 on the y axis
        assertThat(chart.texts())
                .contains("1e3", "1e4", "1e5", "1e6")
                .contains("10", "100", "1,000")
                .contains("timers (n), log scale", "ns per operation, log scale")
                .contains("HIERARCHICAL_WHEEL", "QUATERNARY_HEAP", "RED_BLACK_TREE", "AGRONA");
    }

    @Test
    void theContentionChartLabelsEachThreadCount() {
        Workload workload = Workloads.all().stream()
                .filter(w -> w.id().equals("driver-contention"))
                .findFirst()
                .orElseThrow();
        List<Measurement> group = Fixtures.results(Fixtures.THREE_FORKS).of(workload);

        LogChart.Rendered chart = Charts.render(
                        workload, "Contention", workload.unit(), group, Measurement::score, true)
                .orElseThrow();

        assertThat(chart.texts()).contains("1", "2", "4", "producer threads, log scale", "100", "1,000");
    }

    @Test
    void aLibraryKeepsItsColourInEveryChart() {
        assertThat(Palette.style("HIERARCHICAL_WHEEL").colour())
                .isEqualTo(Palette.style("HOURGLASS_HIERARCHICAL_WHEEL").colour())
                .isEqualTo(Palette.style("HOURGLASS_LOOP_HIERARCHICAL_WHEEL").colour());
        assertThat(Palette.style("JDK_STPE_REMOVE_ON_CANCEL").colour())
                .isEqualTo(Palette.style("JDK_STPE_KEEP_CANCELLED").colour());
        List<String> libraries = List.of(
                "UNSORTED_LIST",
                "SORTED_LIST",
                "RED_BLACK_TREE",
                "BINARY_HEAP",
                "QUATERNARY_HEAP",
                "SKIP_LIST",
                "SIMPLE_WHEEL",
                "HASHED_WHEEL",
                "SORTED_HASHED_WHEEL",
                "HIERARCHICAL_WHEEL",
                "AGRONA",
                "NETTY_HASHED_WHEEL",
                "KAFKA_SYSTEM_TIMER",
                "JDK_STPE_REMOVE_ON_CANCEL");
        Map<Integer, String> seen = new HashMap<>();
        for (String library : libraries) {
            String before = seen.put(Palette.style(library).colour().getRGB(), library);
            assertThat(before).as(library + " shares its colour").isNull();
        }
    }

    @Test
    void aHugeErrorBarIsCutAtThePlotsEdgeInsteadOfStretchingTheAxis() {
        LogChart.Rendered chart = LogChart.render(
                "t",
                "x",
                "y",
                false,
                List.of(new LogChart.Series(
                        "HIERARCHICAL_WHEEL",
                        Palette.style("HIERARCHICAL_WHEEL"),
                        List.of(new LogChart.Point(1e4, 20, 2000), new LogChart.Point(1e6, 40, 1)))));

        // the y axis spans the scores' decades (10 to 100), not the error's
        assertThat(chart.texts()).contains("10", "100").doesNotContain("1,000", "10,000");
    }

    @Test
    void theLongestSeriesNameFitsInsideTheImage() {
        System.setProperty("java.awt.headless", "true");
        String longest = "HOURGLASS_LOOP_HIERARCHICAL_WHEEL";
        LogChart.Rendered chart = LogChart.render(
                "t",
                "x",
                "y",
                false,
                List.of(new LogChart.Series(
                        longest,
                        Palette.style(longest),
                        List.of(new LogChart.Point(1e4, 20, 2), new LogChart.Point(1e6, 40, 1)))));

        // a name cut by the edge leaves ink in the image's last columns
        BufferedImage image = chart.image();
        for (int x = image.getWidth() - 8; x < image.getWidth(); x++) {
            for (int y = 0; y < image.getHeight(); y++) {
                assertThat(image.getRGB(x, y) & 0xffffff)
                        .as("pixel (%d, %d)", x, y)
                        .isEqualTo(0xffffff);
            }
        }
    }

    private static double inkShare(BufferedImage image) {
        long ink = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                if ((image.getRGB(x, y) & 0xffffff) != 0xffffff) {
                    ink++;
                }
            }
        }
        return (double) ink / ((long) image.getWidth() * image.getHeight());
    }
}
