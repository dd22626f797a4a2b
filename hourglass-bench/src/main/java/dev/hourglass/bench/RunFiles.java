package dev.hourglass.bench;

import dev.hourglass.bench.footprint.FootprintRow;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes a run's folder: the report ({@value #REPORT}), every figure as CSV and JSON, the README's
 * table ({@value #README_TABLE}), the decision guide ({@value #GUIDE}) and the charts, all from the
 * same results.
 *
 * <p>Complexity: O(measurements) plus the charts. Ordering: n/a. Thread-safety: one thread.
 */
final class RunFiles {

    /** The report's file name, in a run folder and in docs/. */
    static final String REPORT = "shootout.md";
    /** The decision guide's file name, in a run folder and in docs/. */
    static final String GUIDE = "decision-guide.md";
    /** The README block's file name in a run folder. */
    static final String README_TABLE = "README-table.md";
    /** The charts' folder, in a run folder and in docs/. */
    static final String CHARTS = "charts";

    private RunFiles() {}

    /**
     * Writes every generated file of a run.
     *
     * @param dir the run's folder, created if needed
     * @param results the results
     * @param run which run
     * @return the files written
     * @throws IOException if a file cannot be written
     */
    static List<Path> write(Path dir, Results results, RunInfo run) throws IOException {
        Files.createDirectories(dir);
        List<Charts.Chart> charts = Charts.write(results, dir.resolve(CHARTS));
        List<Path> written = new ArrayList<>();
        written.add(Files.writeString(dir.resolve(REPORT), Report.markdown(results, run, charts)));
        written.add(Files.writeString(dir.resolve(README_TABLE), ReadmeTable.markdown(results, run)));
        written.add(Files.writeString(dir.resolve(GUIDE), DecisionGuide.markdown(results, run)));
        written.add(Files.writeString(dir.resolve("results.csv"), csv(results)));
        written.add(Files.writeString(dir.resolve("results.json"), json(results, run)));
        for (Charts.Chart chart : charts) {
            written.add(dir.resolve(chart.file()));
        }
        return written;
    }

    /**
     * Formats every measurement as CSV, one line each, with a header.
     *
     * @param results the results
     * @return the CSV text
     */
    static String csv(Results results) {
        StringBuilder csv = new StringBuilder(
                "workload,level,impl,params,sweep,x,score,error,unit,forks,driver_cpu_ns,caller_cpu_ns,status\n");
        for (Measurement m : results.measurements()) {
            Workload w = m.workload();
            csv.append(String.join(
                            ",",
                            w.id(),
                            w.level().name(),
                            m.impl(),
                            cell(Format.params(Results.others(m))),
                            w.sweep(),
                            Long.toString(m.x()),
                            csvNumber(m.score()),
                            csvNumber(m.error()),
                            cell(w.unit()),
                            Integer.toString(m.forks()),
                            csvNumber(m.driverCpu()),
                            csvNumber(m.callerCpu()),
                            cell(m.ok() ? "" : m.status())))
                    .append('\n');
        }
        for (FootprintRow row : results.footprint()) {
            csv.append(String.join(
                            ",",
                            "footprint",
                            "QUEUE",
                            row.impl(),
                            "",
                            "n",
                            Integer.toString(row.timers()),
                            csvNumber(row.bytesPerPending()),
                            "",
                            "bytes per pending timer",
                            "1",
                            "",
                            "",
                            ""))
                    .append('\n');
        }
        return csv.toString();
    }

    /**
     * Formats the run and every measurement as JSON.
     *
     * @param results the results
     * @param run which run
     * @return the JSON text
     */
    static String json(Results results, RunInfo run) {
        StringBuilder json = new StringBuilder("{\n  \"run\": {")
                .append("\"date\": ")
                .append(Json.quote(run.date()))
                .append(", \"machine\": {\"cpu\": ")
                .append(Json.quote(run.machine().cpu()))
                .append(", \"cores\": ")
                .append(run.machine().cores())
                .append(", \"memory\": ")
                .append(Json.quote(run.machine().memory()))
                .append(", \"jdk\": ")
                .append(Json.quote(run.machine().jdk()))
                .append(", \"os\": ")
                .append(Json.quote(run.machine().os()))
                .append("}, \"mode\": ")
                .append(Json.quote(run.mode()))
                .append(", \"jmh\": ")
                .append(Json.quote(run.jmh()))
                .append(", \"forks\": ")
                .append(run.forks())
                .append(", \"provisional\": ")
                .append(run.provisional())
                .append(", \"command\": ")
                .append(Json.quote(run.command()))
                .append("},\n  \"measurements\": [");
        String separator = "\n    ";
        for (Measurement m : results.measurements()) {
            json.append(separator)
                    .append("{\"workload\": ")
                    .append(Json.quote(m.workload().id()))
                    .append(", \"params\": {");
            String comma = "";
            for (Map.Entry<String, String> param : m.params().entrySet()) {
                json.append(comma)
                        .append(Json.quote(param.getKey()))
                        .append(": ")
                        .append(Json.quote(param.getValue()));
                comma = ", ";
            }
            json.append("}, \"score\": ")
                    .append(Json.number(m.score()))
                    .append(", \"error\": ")
                    .append(Json.number(m.error()))
                    .append(", \"unit\": ")
                    .append(Json.quote(m.workload().unit()))
                    .append(", \"forks\": ")
                    .append(m.forks())
                    .append(", \"driverCpuNanos\": ")
                    .append(Json.number(m.driverCpu()))
                    .append(", \"callerCpuNanos\": ")
                    .append(Json.number(m.callerCpu()))
                    .append(", \"status\": ")
                    .append(m.ok() ? "null" : Json.quote(m.status()))
                    .append('}');
            separator = ",\n    ";
        }
        json.append("\n  ],\n  \"footprint\": [");
        separator = "\n    ";
        for (FootprintRow row : results.footprint()) {
            json.append(separator)
                    .append("{\"impl\": ")
                    .append(Json.quote(row.impl()))
                    .append(", \"timers\": ")
                    .append(row.timers())
                    .append(", \"fixedBytes\": ")
                    .append(row.fixedBytes())
                    .append(", \"bytesPerPending\": ")
                    .append(Json.number(row.bytesPerPending()))
                    .append(", \"bytesPerCancelled\": ")
                    .append(Json.number(row.bytesPerCancelled()))
                    .append('}');
            separator = ",\n    ";
        }
        return json.append("\n  ]\n}\n").toString();
    }

    private static String csvNumber(double value) {
        return Double.isNaN(value) ? "" : Double.toString(value);
    }

    private static String cell(String text) {
        if (text.contains(",") || text.contains("\"") || text.contains("\n")) {
            return "\"" + text.replace("\"", "\"\"") + "\"";
        }
        return text;
    }
}
