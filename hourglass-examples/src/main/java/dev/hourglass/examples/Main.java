package dev.hourglass.examples;

import dev.hourglass.examples.heartbeat.HeartbeatCommand;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;

/** The command-line entry point behind {@code ./hourglass}. */
public final class Main {

    private static final List<Command> COMMANDS = List.of(
            new Command(
                    "demo",
                    "every structure firing real timers, and how late each one fired (the default)",
                    StructuresDemo.USAGE,
                    (options, in, out, err) -> StructuresDemo.run(options, out, err)),
            new Command(
                    "cooldowns",
                    "a game round: abilities with cooldown bars and a countdown",
                    CooldownsDemo.USAGE,
                    (options, in, out, err) -> CooldownsDemo.run(options, in, out, err, Terminal.isTerminal())),
            new Command(
                    "heartbeat-server",
                    "a TCP server kicking silent connections, with an optional load client",
                    HeartbeatCommand.USAGE,
                    (options, in, out, err) -> HeartbeatCommand.run(options, out, err)));

    /** Runs from {@code ./hourglass}, which builds the benchmarks first; Main cannot reach them. */
    private static final String SHOOTOUT = "shootout";

    /** Runs from {@code ./hourglass}, which puts Hourglass Redis and Jedis on the class path. */
    private static final String REDIS = "redis";

    private Main() {}

    /**
     * Runs a command and exits with its status.
     *
     * @param args the command and its options; {@code help} lists them
     */
    public static void main(String[] args) {
        System.exit(run(args, System.in, System.out, System.err));
    }

    /**
     * Runs a command.
     *
     * @param args the command and its options; none runs {@code demo}
     * @param in standard input
     * @param out where output, usage and help go
     * @param err where errors go
     * @return the exit status: 0 done, 2 an unknown command or bad options, else the command's
     */
    static int run(String[] args, InputStream in, PrintStream out, PrintStream err) {
        String name = args.length == 0 ? "demo" : args[0];
        String[] rest = Arrays.copyOfRange(args, Math.min(1, args.length), args.length);
        if (name.equals("help") || Command.asksForHelp(name)) {
            return help(rest, out, err);
        }
        if (name.equals(SHOOTOUT) || name.equals(REDIS)) {
            err.println("the " + name + " command runs from ./hourglass " + name + ", which builds it first");
            return Command.BAD_USAGE;
        }
        Command command = find(name);
        if (command == null) {
            err.println("unknown command: " + name);
            usage(err);
            return Command.BAD_USAGE;
        }
        return command.run(rest, in, out, err);
    }

    /** {@code help} alone lists the commands; {@code help COMMAND} prints that command's usage. */
    private static int help(String[] rest, PrintStream out, PrintStream err) {
        if (rest.length == 0) {
            usage(out);
            return 0;
        }
        Command command = find(rest[0]);
        if (command == null) {
            err.println("unknown command: " + rest[0]);
            usage(err);
            return Command.BAD_USAGE;
        }
        command.printUsage(out);
        return 0;
    }

    private static Command find(String name) {
        for (Command command : COMMANDS) {
            if (command.name().equals(name)) {
                return command;
            }
        }
        return null;
    }

    private static void usage(PrintStream out) {
        out.println("usage: ./hourglass [command] [options]");
        out.println();
        out.println("commands:");
        for (Command command : COMMANDS) {
            out.printf("  %-17s %s%n", command.name(), command.summary());
        }
        out.printf(
                "  %-17s %s%n", SHOOTOUT, "every structure and driver beside Netty, Kafka, Agrona and the JDK (JMH)");
        out.printf("  %-17s %s%n", REDIS, "inspect durable Redis timers: stats, list, requeue, cancel, purge");
        out.printf("  %-17s %s%n", "help [command]", "this list, or a command's options");
        out.println();
        out.println("./hourglass COMMAND --help prints a command's options.");
    }
}
