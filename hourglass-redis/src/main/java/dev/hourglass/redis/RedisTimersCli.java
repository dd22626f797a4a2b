package dev.hourglass.redis;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The operator's command line over {@link RedisTimers}' inspect API: {@code ./hourglass redis
 * stats|list|requeue|cancel|purge}. It starts a node that registers no handler, so it claims
 * nothing; the key layout (namespace, shard count) must be the one the running nodes use, which
 * the node checks at start against what Redis stores.
 *
 * <p>Exit status: 0 done; 1 the timer was not there (requeue of a timer that is not dead, cancel
 * of one that does not exist); 2 bad usage; 3 Redis failed or refused the settings.
 *
 * <p>Complexity: what the called inspect method costs. Thread-safety: each run is independent.
 */
public final class RedisTimersCli {

    /** The options and commands, printed after {@code usage: }. */
    public static final String USAGE = "./hourglass redis [options] COMMAND QUEUE [ID]\n"
            + "  commands:\n"
            + "    stats QUEUE                  counts of scheduled, claimed and dead timers\n"
            + "    list QUEUE                   timers in a state (--state, --limit), one per line\n"
            + "    requeue QUEUE ID             makes a dead timer due now again\n"
            + "    cancel QUEUE ID              deletes a timer, scheduled, claimed or dead\n"
            + "    purge QUEUE                  deletes every dead timer of the queue\n"
            + "  options:\n"
            + "    --redis HOST:PORT            the server (default 127.0.0.1:6379)\n"
            + "    --namespace NS               the key prefix the nodes use (default hourglass)\n"
            + "    --shards N                   the shard count the nodes use (default 1)\n"
            + "    --durability memory|fsync    what requeue, cancel and purge wait for (default fsync)\n"
            + "    --state scheduled|claimed|dead   for list (default dead)\n"
            + "    --limit N                    for list, at least 1 (default 100)";

    static final int DONE = 0;
    static final int NOT_FOUND = 1;
    static final int BAD_USAGE = 2;
    static final int FAILED = 3;

    private RedisTimersCli() {}

    /**
     * Runs a command and exits with its status.
     *
     * @param args the options, the command and its arguments
     */
    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /**
     * Runs a command.
     *
     * @param args the options, the command and its arguments; {@code --help} prints the usage
     * @param out where results and the usage go
     * @param err where errors go
     * @return the exit status (see the class comment)
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        RedisTimersBuilder builder = RedisTimers.builder().durability(Durability.fsync());
        TimerState state = TimerState.DEAD;
        int limit = 100;
        List<String> words = new ArrayList<>();
        try {
            for (int i = 0; i < args.length; i++) {
                String arg = args[i];
                if (arg.equals("--help") || arg.equals("-h")) {
                    out.println("usage: " + USAGE);
                    return DONE;
                }
                if (!arg.startsWith("--")) {
                    words.add(arg);
                    continue;
                }
                if (i + 1 == args.length) {
                    return badUsage(err, arg + " needs a value");
                }
                String value = args[++i];
                switch (arg) {
                    case "--redis" -> redis(builder, value);
                    case "--namespace" -> builder.namespace(value);
                    case "--shards" -> builder.shards(number(arg, value));
                    case "--durability" -> builder.durability(durability(value));
                    case "--state" -> state = state(value);
                    case "--limit" -> limit = number(arg, value);
                    default -> {
                        return badUsage(err, "unknown option: " + arg);
                    }
                }
            }
        } catch (IllegalArgumentException e) {
            return badUsage(err, e.getMessage());
        }
        if (words.isEmpty()) {
            return badUsage(err, "no command given");
        }
        String command = words.get(0);
        int arity = command.equals("requeue") || command.equals("cancel") ? 3 : 2;
        if (!List.of("stats", "list", "requeue", "cancel", "purge").contains(command)) {
            return badUsage(err, "unknown command: " + command);
        }
        if (words.size() != arity) {
            return badUsage(
                    err,
                    command + " takes " + (arity == 3 ? "QUEUE ID" : "QUEUE") + ", got "
                            + words.subList(1, words.size()));
        }
        String queue = words.get(1);
        try (RedisTimers timers = builder.queues(queue).build()) {
            return switch (command) {
                case "stats" -> stats(timers.stats(queue), out);
                case "list" -> list(timers, queue, state, limit, out);
                case "requeue" -> found(timers.requeue(queue, words.get(2)), "requeued", "not dead", words.get(2), out);
                case "cancel" -> found(timers.cancel(queue, words.get(2)), "cancelled", "not found", words.get(2), out);
                default -> {
                    out.println("purged " + timers.purgeDeadLetters(queue) + " dead timers");
                    yield DONE;
                }
            };
        } catch (IllegalArgumentException e) {
            return badUsage(err, e.getMessage());
        } catch (RuntimeException e) {
            // RedisTimersException, or settings the server cannot keep (IllegalStateException).
            err.println("redis " + command + " failed: " + e.getMessage());
            if (String.valueOf(e.getMessage()).contains("Durability.fsync()")) {
                err.println("(--durability memory inspects a server that does not fsync every write)");
            }
            return FAILED;
        }
    }

    private static int stats(Map<TimerState, Long> counts, PrintStream out) {
        counts.forEach((s, n) -> out.println(s.name().toLowerCase(Locale.ROOT) + " " + n));
        return DONE;
    }

    private static int list(RedisTimers timers, String queue, TimerState state, int limit, PrintStream out) {
        for (TimerSnapshot s : timers.list(queue, state, limit)) {
            out.println(s.id() + "\t" + s.state().name().toLowerCase(Locale.ROOT) + "\tdue " + s.dueTime()
                    + "\tattempts " + s.attempts() + "\towner " + s.owner().orElse("-") + "\tpayload "
                    + s.payload().length + " bytes");
        }
        return DONE;
    }

    private static int found(boolean done, String yes, String no, String id, PrintStream out) {
        out.println((done ? yes : no) + ": " + id);
        return done ? DONE : NOT_FOUND;
    }

    private static int badUsage(PrintStream err, String message) {
        err.println(message);
        err.println("./hourglass redis --help lists its options");
        return BAD_USAGE;
    }

    private static void redis(RedisTimersBuilder builder, String value) {
        int colon = value.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("--redis must be HOST:PORT: " + value);
        }
        builder.redis(value.substring(0, colon), number("--redis port", value.substring(colon + 1)));
    }

    private static int number(String option, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " is not a whole number: " + value, e);
        }
    }

    private static Durability durability(String value) {
        return switch (value) {
            case "memory" -> Durability.memory();
            case "fsync" -> Durability.fsync();
            default -> throw new IllegalArgumentException("--durability must be memory or fsync: " + value);
        };
    }

    private static TimerState state(String value) {
        for (TimerState s : TimerState.values()) {
            if (s.name().equalsIgnoreCase(value)) {
                return s;
            }
        }
        throw new IllegalArgumentException("--state must be scheduled, claimed or dead: " + value);
    }
}
