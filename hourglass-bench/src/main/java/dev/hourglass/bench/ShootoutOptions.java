package dev.hourglass.bench;

import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The command line of {@code ./hourglass shootout}, parsed. Bad options get an exception naming the
 * option and the value.
 *
 * <p>Complexity: O(arguments). Ordering: n/a. Thread-safety: immutable.
 *
 * @param settings the JMH settings (quick or full, with any overrides)
 * @param out the run folder, or null for {@code runs/<date>-<machine>}
 * @param only the filter on run labels, or null for every run
 * @param footprint true to measure the footprint
 * @param publish true to publish the run into docs/ and README.md when it is done
 * @param publishRun a finished run folder to publish without measuring, or null
 * @param dryRun true to list the runs and the estimated time without running them
 * @param help true to print the usage
 */
record ShootoutOptions(
        JmhSettings settings,
        Path out,
        Pattern only,
        boolean footprint,
        boolean publish,
        Path publishRun,
        boolean dryRun,
        boolean help) {

    /** The width {@code --help} wraps its lines at. */
    private static final int USAGE_WIDTH = 100;

    /** Every option with its description, for {@code --help}. */
    static final List<String[]> OPTIONS = List.of(
            new String[] {
                "--quick",
                "the default: 1 fork, 1 x 200 ms warm-up, 5 x 100 ms measurement, a 2 GB heap,"
                        + " n = 1e4 and 1e6; about seven minutes on 2 idle cores; its verdicts are provisional"
            },
            new String[] {
                "--full",
                "for publication: 3 forks, each benchmark's own iterations (seconds each),"
                        + " -Xms4g -Xmx4g -XX:+AlwaysPreTouch, a point per decade from 1e3 to 1e6; hours (see --dry-run)"
            },
            new String[] {
                "--only REGEX",
                "only the runs whose label matches, e.g. queue-heartbeat,"
                        + " impl=HIERARCHICAL_WHEEL, n=1e6, footprint; an error if nothing matches"
            },
            new String[] {
                "--out DIR", "the run folder (default runs/<date>-<machine>); must be new or empty," + " never docs/"
            },
            new String[] {"--no-footprint", "skip the footprint measurement"},
            new String[] {
                "--publish",
                "when done, copy the report, decision guide and charts into docs/ and the"
                        + " table into README.md (not with --only)"
            },
            new String[] {"--publish-run DIR", "publish a finished run folder without measuring"},
            new String[] {"--dry-run", "list the runs and the estimated time, run nothing"},
            new String[] {"--forks N", "override the forks per measurement (fewer than 3: verdicts provisional)"},
            new String[] {"--iterations N", "override the measurement iterations (warm-up: 1), for a smoke run"},
            new String[] {"--iteration-ms MS", "override the measurement iteration time (warm-up: twice it)"},
            new String[] {"--help, -h", "this help"});

    /**
     * Parses the arguments.
     *
     * @param args the command line after {@code shootout}
     * @return the options
     * @throws IllegalArgumentException naming the option and value that are wrong
     */
    static ShootoutOptions parse(String... args) {
        boolean full = false;
        Path out = null;
        Pattern only = null;
        boolean footprint = true;
        boolean publish = false;
        Path publishRun = null;
        boolean dryRun = false;
        boolean help = false;
        int forks = 0;
        int iterations = 0;
        long millis = 0;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--quick" -> full = false;
                case "--full" -> full = true;
                case "--out" -> out = Path.of(value(args, ++i, arg));
                case "--only" -> only = pattern(value(args, ++i, arg));
                case "--no-footprint" -> footprint = false;
                case "--publish" -> publish = true;
                case "--publish-run" -> publishRun = Path.of(value(args, ++i, arg));
                case "--dry-run" -> dryRun = true;
                case "--forks" -> forks = positive(arg, value(args, ++i, arg));
                case "--iterations" -> iterations = positive(arg, value(args, ++i, arg));
                case "--iteration-ms" -> millis = positive(arg, value(args, ++i, arg));
                case "--help", "-h" -> help = true;
                default -> throw new IllegalArgumentException("unknown option: " + arg);
            }
        }
        if (publish && only != null) {
            throw new IllegalArgumentException(
                    "--publish with --only " + only + ": a published report must cover every workload");
        }
        if (out != null && isDocs(out)) {
            throw new IllegalArgumentException("--out " + out + ": docs/ is written only by --publish");
        }
        JmhSettings settings =
                (full ? JmhSettings.fullMode() : JmhSettings.quickMode()).with(forks, iterations, millis);
        return new ShootoutOptions(settings, out, only, footprint, publish, publishRun, dryRun, help);
    }

    /**
     * Formats the usage.
     *
     * @return the text of {@code --help}
     */
    static String usage() {
        StringBuilder text = new StringBuilder("usage: ./hourglass shootout [options]\n\n"
                + "Runs every workload of the shootout with JMH (queue level beside Agrona; driver level beside"
                + " Netty,\nKafka and the JDK), shows its progress, and writes a new run folder with the report"
                + " (shootout.md),\nresults.csv, results.json, JMH's jmh-results.json, charts/, README-table.md and"
                + " decision-guide.md.\ndocs/ and README.md change only with --publish or --publish-run.\n\n"
                + "options:\n");
        for (String[] option : OPTIONS) {
            String pad = String.format("  %-20s ", option[0]);
            StringBuilder line = new StringBuilder(pad);
            for (String word : option[1].split(" ")) {
                if (line.length() + word.length() > USAGE_WIDTH && line.length() > pad.length()) {
                    text.append(line.toString().stripTrailing()).append('\n');
                    line = new StringBuilder(" ".repeat(pad.length()));
                }
                line.append(word).append(' ');
            }
            text.append(line.toString().stripTrailing()).append('\n');
        }
        return text.toString();
    }

    private static boolean isDocs(Path out) {
        Path normal = out.toAbsolutePath().normalize();
        return normal.equals(Path.of("docs").toAbsolutePath().normalize());
    }

    private static String value(String[] args, int index, String option) {
        if (index >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[index];
    }

    private static Pattern pattern(String regex) {
        try {
            return Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException(
                    "--only " + regex + " is not a regular expression: " + e.getDescription());
        }
    }

    private static int positive(String option, String value) {
        try {
            int parsed = Integer.parseInt(value);
            if (parsed > 0) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // falls through to the message below
        }
        throw new IllegalArgumentException(option + " needs a positive whole number, not " + value);
    }
}
