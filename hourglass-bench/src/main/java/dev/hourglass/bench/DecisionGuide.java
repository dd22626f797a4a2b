package dev.hourglass.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The decision guide (which structure for which workload), generated from one run's results so it
 * cannot contradict them: for each workload it recommends the structure with the lowest score at
 * the largest size, names those the run cannot tell apart from it (their 99.9% intervals overlap),
 * and prints the ranking it read that from. The reasons given are the structures' complexity and
 * order, which no run changes.
 *
 * <p>Complexity: O(measurements × log). Ordering: workloads in {@link Workloads} order.
 * Thread-safety: stateless.
 */
final class DecisionGuide {

    /** What each structure is, in the README's complexity table's terms. */
    private static final Map<String, String> WHY = Map.ofEntries(
            Map.entry("UNSORTED_LIST", "O(1) schedule and cancel, but an O(n) scan for the next deadline"),
            Map.entry("SORTED_LIST", "O(1) when deadlines arrive in order (it searches from the latest), else O(n)"),
            Map.entry("RED_BLACK_TREE", "exact order, O(log n) for everything"),
            Map.entry("BINARY_HEAP", "exact order, O(log n) with an index per entry"),
            Map.entry("QUATERNARY_HEAP", "exact order, O(log₄ n), shallower than the binary heap"),
            Map.entry("SKIP_LIST", "exact order, O(log n) expected, O(1) cancel"),
            Map.entry("SIMPLE_WHEEL", "O(1), one slot per tick, bounded range (it refuses what lies beyond)"),
            Map.entry("HASHED_WHEEL", "O(1) schedule and cancel, a per-tick scan of a bucket"),
            Map.entry("SORTED_HASHED_WHEEL", "deadline order within a tick, O(bucket) schedule"),
            Map.entry("HIERARCHICAL_WHEEL", "O(1) schedule, cancel and reschedule, no range limit"));

    /** The question each queue-level workload answers. */
    private static final Map<String, String> QUESTION = Map.of(
            "queue-heartbeat", "heartbeats / idle connections: many timers, moved on every ping, rarely fire",
            "queue-request", "request timeouts: schedule, then cancel before they fire",
            "queue-fire-one-tick", "expiry bursts: many timers due in the same tick",
            "queue-fire-spread", "many timers firing, spread over a second");

    private DecisionGuide() {}

    /**
     * One recommendation.
     *
     * @param question the workload, as a reader would put it
     * @param use the recommended structure: the lowest score in its ranking
     * @param best its measurement
     * @param alike the structures whose interval overlaps the recommended one's
     * @param ranking every measured structure, fastest first
     */
    record Answer(String question, String use, Measurement best, List<String> alike, List<Measurement> ranking) {}

    /**
     * Builds the guide.
     *
     * @param results the run's results
     * @param run which run
     * @return the Markdown text
     */
    static String markdown(Results results, RunInfo run) {
        StringBuilder md = new StringBuilder("# Which timer structure for which workload\n\n");
        md.append("Every Hourglass structure keeps the same contract (see the README), so the choice is about cost,"
                        + " lateness and order, and it is one line: `TimerQueues.xxx(..)` or"
                        + " `Timers.builder().structure(TimerStructure.XXX)`. This guide is generated from the same run as"
                        + " [the shootout](shootout.md): ")
                .append(run.identity())
                .append(". It recommends, for each workload, the structure with the lowest time at the largest"
                        + " size, and names those this run cannot tell apart from it (overlapping 99.9%"
                        + " intervals).\n\n");
        md.append(run.provisionalNote());
        List<Answer> answers = answers(results);
        md.append("## Short answer\n\n| your workload | use | why | measured | as fast within the error |\n")
                .append("| --- | --- | --- | --- | --- |\n");
        for (Answer answer : answers) {
            md.append("| ")
                    .append(answer.question())
                    .append(" | ")
                    .append(answer.use())
                    .append(" | ")
                    .append(WHY.getOrDefault(answer.use(), ""))
                    .append(" | ")
                    .append(Format.score(answer.best()))
                    .append(' ')
                    .append(answer.best().workload().unit())
                    .append(" | ")
                    .append(answer.alike().isEmpty() ? "none" : String.join(", ", answer.alike()))
                    .append(" |\n");
        }
        md.append("\n## The rankings behind it\n\nQueue level: the single-threaded structures under a simulated"
                + " clock, fastest first at the largest size (anchors included for scale).\n");
        for (Answer answer : answers) {
            md.append("\n### ").append(answer.question()).append("\n\n");
            md.append(ranking(answer.ranking()));
        }
        md.append("\n## Driver level: thread-safe timers\n\nThrough `Timer` (its own driver thread) beside the"
                + " anchors, fastest first at the largest size, with the CPU the timer's own threads"
                + " spent per operation.\n");
        for (Workload workload : Workloads.all()) {
            if (!workload.driver()) {
                continue;
            }
            for (Map.Entry<Map<String, String>, List<Measurement>> group :
                    results.groups(workload).entrySet()) {
                List<Long> xs = Results.xs(group.getValue());
                long x = xs.get(xs.size() - 1);
                md.append("\n### ")
                        .append(Report.title(workload, group.getKey()))
                        .append(", ")
                        .append(Tables.column(workload, x))
                        .append("\n\n| timer | time | driver CPU per operation |\n| --- | ---: | ---: |\n");
                for (Measurement m : sorted(group.getValue(), x)) {
                    md.append("| ")
                            .append(m.impl())
                            .append(" | ")
                            .append(Format.score(m))
                            .append(" | ")
                            .append(Format.number(m.driverCpu()))
                            .append(" |\n");
                }
            }
        }
        md.append("\n## Lateness and order, which no benchmark decides for you\n\nA wheel with tick `t` fires up"
                + " to one tick late and promises no order within a tick (the simple wheel keeps insertion order,"
                + " the sorted hashed wheel deadline order). If a task must run at its deadline to the"
                + " microsecond, or ties must break in insertion order, use an exact structure (a heap, the"
                + " red-black tree or the skip list) and pay its O(log n).\n");
        return md.toString();
    }

    /**
     * Computes the recommendations: one per queue-level workload group at its largest size, and one
     * for few timers (the smallest size of the heartbeat workload).
     *
     * @param results the run's results
     * @return the answers, in workload order
     */
    static List<Answer> answers(Results results) {
        List<Answer> answers = new ArrayList<>();
        for (Workload workload : Workloads.all()) {
            if (workload.driver()) {
                continue;
            }
            for (Map.Entry<Map<String, String>, List<Measurement>> group :
                    results.groups(workload).entrySet()) {
                List<Long> xs = Results.xs(group.getValue());
                String question = QUESTION.getOrDefault(workload.id(), workload.title());
                answer(
                                workload,
                                question + ", " + Tables.column(workload, xs.get(xs.size() - 1)),
                                group.getValue(),
                                xs.get(xs.size() - 1))
                        .ifPresent(answers::add);
                if (workload.id().equals("queue-heartbeat") && xs.size() > 1) {
                    answer(
                                    workload,
                                    "few timers (heartbeats, " + Tables.column(workload, xs.get(0)) + ")",
                                    group.getValue(),
                                    xs.get(0))
                            .ifPresent(answers::add);
                }
            }
        }
        return answers;
    }

    private static Optional<Answer> answer(Workload workload, String question, List<Measurement> group, long x) {
        List<Measurement> ranking = sorted(group, x);
        Optional<Measurement> best = ReadmeTable.best(workload, group, x);
        if (best.isEmpty()) {
            return Optional.empty();
        }
        List<String> alike = new ArrayList<>();
        for (Measurement m : ranking) {
            if (m != best.get() && !workload.anchors().contains(m.impl()) && overlap(best.get(), m)) {
                alike.add(m.impl());
            }
        }
        return Optional.of(new Answer(question, best.get().impl(), best.get(), alike, ranking));
    }

    private static boolean overlap(Measurement a, Measurement b) {
        if (!(a.error() >= 0) || !(b.error() >= 0)) {
            return true;
        }
        return a.score() + a.error() >= b.score() - b.error();
    }

    private static List<Measurement> sorted(List<Measurement> group, long x) {
        return group.stream()
                .filter(m -> m.ok() && m.x() == x)
                .sorted(Comparator.comparingDouble(Measurement::score))
                .toList();
    }

    private static String ranking(List<Measurement> ranking) {
        if (ranking.isEmpty()) {
            return "Nothing measured.\n";
        }
        Workload workload = ranking.get(0).workload();
        StringBuilder md = new StringBuilder("| structure | ")
                .append(Tables.column(workload, ranking.get(0).x()))
                .append(", ")
                .append(workload.unit())
                .append(" |\n| --- | ---: |\n");
        for (Measurement m : ranking) {
            md.append("| ")
                    .append(m.impl())
                    .append(" | ")
                    .append(Format.score(m))
                    .append(" |\n");
        }
        return md.toString();
    }
}
