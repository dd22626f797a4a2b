package dev.hourglass.examples.heartbeat;

import java.util.List;

/**
 * The options of {@code ./hourglass heartbeat-server}, parsed and checked.
 *
 * <p>Complexity: O(arguments). Ordering: a repeated option's last value wins. Thread-safety:
 * immutable.
 *
 * @param host the address to listen on
 * @param port the port, 0 for an ephemeral one
 * @param idleMillis how long a connection may stay silent
 * @param clients how many load-client connections to open, 0 for none
 * @param pingMillis how often each load-client connection pings
 * @param silentFraction the fraction of load-client connections that go silent
 * @param silentAfterMillis how long after connecting a silent connection stops pinging
 * @param seconds how long to run, 0 for until Ctrl-C
 * @param quiet true to leave out the kick lines
 */
record HeartbeatOptions(
        String host,
        int port,
        long idleMillis,
        int clients,
        long pingMillis,
        double silentFraction,
        long silentAfterMillis,
        long seconds,
        boolean quiet) {

    /** The options that take a value. */
    private static final List<String> VALUED = List.of(
            "--host", "--port", "--idle-ms", "--clients", "--ping-ms", "--silent", "--silent-after-ms", "--seconds");

    /** The most load-client connections: one loopback address has about this many ports. */
    static final int MAX_CLIENTS = 60_000;

    /**
     * Parses the options that follow the command name.
     *
     * @param args the options
     * @return the options, defaults filled in
     * @throws IllegalArgumentException naming the option and its value when one is unknown,
     *     lacks its value or has a bad one
     */
    static HeartbeatOptions parse(String... args) {
        String host = "127.0.0.1";
        int port = 7000;
        long idleMillis = 10_000;
        int clients = 0;
        long pingMillis = 5_000;
        double silentFraction = 0;
        long silentAfterMillis = -1;
        long seconds = 0;
        boolean quiet = false;
        String clientOnly = null;
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            if (option.equals("--quiet")) {
                quiet = true;
                continue;
            }
            if (!VALUED.contains(option)) {
                throw new IllegalArgumentException(
                        (option.startsWith("-") ? "unknown option: " : "unexpected argument: ") + option);
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(option + " needs a value");
            }
            String value = args[++i];
            switch (option) {
                case "--host":
                    if (value.isBlank()) {
                        throw new IllegalArgumentException("--host must not be blank: '" + value + "'");
                    }
                    host = value;
                    break;
                case "--port":
                    port = (int) number(option, value, 0, 65_535);
                    break;
                case "--idle-ms":
                    idleMillis = number(option, value, 1, Long.MAX_VALUE / 1_000_000);
                    break;
                case "--clients":
                    clients = (int) number(option, value, 0, MAX_CLIENTS);
                    break;
                case "--ping-ms":
                    pingMillis = number(option, value, 1, Long.MAX_VALUE / 1_000_000);
                    clientOnly = option;
                    break;
                case "--silent":
                    silentFraction = fraction(option, value);
                    clientOnly = option;
                    break;
                case "--silent-after-ms":
                    silentAfterMillis = number(option, value, 0, Long.MAX_VALUE / 1_000_000);
                    clientOnly = option;
                    break;
                default:
                    seconds = number(option, value, 1, Long.MAX_VALUE / 1_000);
                    break;
            }
        }
        if (clientOnly != null && clients == 0) {
            throw new IllegalArgumentException(clientOnly + " needs --clients N with N at least 1");
        }
        if (silentAfterMillis < 0) {
            silentAfterMillis = Math.min(pingMillis * 3, Long.MAX_VALUE / 1_000_000);
        }
        return new HeartbeatOptions(
                host, port, idleMillis, clients, pingMillis, silentFraction, silentAfterMillis, seconds, quiet);
    }

    /**
     * Returns how many load-client connections go silent.
     *
     * @return the fraction of the clients, rounded to the nearest whole connection
     */
    int silentClients() {
        return (int) Math.round(clients * silentFraction);
    }

    private static long number(String option, String value, long min, long max) {
        long parsed;
        try {
            parsed = Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " must be a whole number: '" + value + "'", e);
        }
        if (parsed < min || parsed > max) {
            throw new IllegalArgumentException(option + " must be between " + min + " and " + max + ": " + value);
        }
        return parsed;
    }

    private static double fraction(String option, String value) {
        double parsed;
        try {
            parsed = Double.parseDouble(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " must be a fraction from 0 to 1: '" + value + "'", e);
        }
        // Written so that NaN fails too.
        if (!(parsed >= 0 && parsed <= 1)) {
            throw new IllegalArgumentException(option + " must be a fraction from 0 to 1: " + value);
        }
        return parsed;
    }
}
