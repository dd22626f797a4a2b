package dev.hourglass.micrometer;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;
import java.util.stream.Collectors;

/** A real Prometheus registry, and the samples of its scrape whose names start with a prefix. */
final class Scrape {

    final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

    /** The scrape's sample lines (no comments) of series named {@code prefix}..., sorted. */
    List<String> samples(String prefix) {
        return registry.scrape()
                .lines()
                .filter(line -> line.startsWith(prefix))
                .sorted()
                .collect(Collectors.toList());
    }
}
