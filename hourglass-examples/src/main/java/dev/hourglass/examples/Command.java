package dev.hourglass.examples;

import java.io.InputStream;
import java.io.PrintStream;

/**
 * One {@code ./hourglass} command: its name, its line in the command list, its usage and its body.
 * Every command answers {@code --help} (or {@code -h}) the same way, before its own parsing, so a
 * body never mistakes it for an unknown option or for an option's value.
 *
 * @param name what follows {@code ./hourglass}
 * @param summary one line for {@code ./hourglass help}
 * @param usage the options and what they do, printed after {@code usage: ./hourglass }
 * @param body runs the command with the options that follow its name
 */
record Command(String name, String summary, String usage, Body body) {

    /** Exit status of a command given options it cannot run with. */
    static final int BAD_USAGE = 2;

    /** A command's work, given the options that follow its name. */
    @FunctionalInterface
    interface Body {
        /**
         * Runs the command.
         *
         * @param options the arguments after the command's name
         * @param in standard input
         * @param out where the command's output goes
         * @param err where errors go
         * @return the exit status, {@link #BAD_USAGE} for options it cannot run with
         */
        int run(String[] options, InputStream in, PrintStream out, PrintStream err);
    }

    /**
     * Runs the command, or prints its usage to {@code out} when the options ask for help.
     *
     * @param options the arguments after the command's name
     * @param in standard input
     * @param out where the usage or the command's output goes
     * @param err where errors go, followed by a pointer to {@code --help} after bad options
     * @return the command's exit status, 0 after printing its usage
     */
    int run(String[] options, InputStream in, PrintStream out, PrintStream err) {
        if (asksForHelp(options)) {
            printUsage(out);
            return 0;
        }
        int status = body.run(options, in, out, err);
        if (status == BAD_USAGE) {
            err.println("./hourglass " + name + " --help lists its options");
        }
        return status;
    }

    /**
     * Prints the usage.
     *
     * @param out where it goes
     */
    void printUsage(PrintStream out) {
        out.println("usage: ./hourglass " + usage);
    }

    /**
     * Tells whether the options ask for help: {@code --help} or {@code -h} anywhere among them.
     *
     * @param options the arguments after a command's name
     * @return true if one of them is {@code --help} or {@code -h}
     */
    static boolean asksForHelp(String... options) {
        for (String option : options) {
            if (option.equals("--help") || option.equals("-h")) {
                return true;
            }
        }
        return false;
    }
}
