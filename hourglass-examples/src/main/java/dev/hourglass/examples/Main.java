package dev.hourglass.examples;

import dev.hourglass.examples.heartbeat.HeartbeatCommand;
import java.io.PrintStream;
import java.util.Arrays;

/** The command-line entry point behind {@code ./hourglass}. */
public final class Main {

    private Main() {}

    /**
     * Runs a command.
     *
     * @param args the command and its options; {@code help} lists them
     */
    public static void main(String[] args) {
        String command = args.length == 0 ? "demo" : args[0];
        String[] rest = Arrays.copyOfRange(args, Math.min(1, args.length), args.length);
        switch (command) {
            case "demo":
                System.exit(StructuresDemo.run(rest, System.out, System.err));
                break;
            case "cooldowns":
                System.exit(CooldownsDemo.run(rest, System.in, System.out, System.err, Terminal.isTerminal()));
                break;
            case "heartbeat-server":
                System.exit(HeartbeatCommand.run(rest, System.out, System.err));
                break;
            case "help":
            case "--help":
            case "-h":
                usage(System.out);
                break;
            default:
                System.err.println("unknown command: " + command);
                usage(System.err);
                System.exit(2);
        }
    }

    private static void usage(PrintStream out) {
        out.println("usage: ./hourglass [command] [options]");
        out.println();
        out.println("commands:");
        out.println("  demo [--timers N] [--span-ms MS] [--tick-us US]");
        out.println("        schedule N timers spread over MS milliseconds on every structure, fire them");
        out.println("        under the system clock and print how late each structure fired (default)");
        out.println("  cooldowns [--seconds S] [--auto]");
        out.println("        a game round of S seconds (default 30): abilities with cooldown bars and a countdown;");
        out.println("        type 1/2/3 + Enter to use an ability, r to reset, q to quit; --auto plays by itself");
        out.println("  heartbeat-server [--port 7000] [--idle-ms 10000] [--clients N --ping-ms MS --silent F]");
        out.println("        a TCP server that answers PING lines and kicks connections silent for longer than the");
        out.println("        idle timeout; --clients also runs a load client whose F fraction goes silent");
        out.println("        (more: --host, --silent-after-ms, --seconds S, --quiet; Ctrl-C stops)");
        out.println("  shootout [--full]");
        out.println("        benchmark every structure and driver beside Netty, Kafka, Agrona and the JDK (JMH,");
        out.println("        about five minutes; --full for the long run) and write docs/shootout.md and charts");
        out.println("  help  this text");
    }
}
