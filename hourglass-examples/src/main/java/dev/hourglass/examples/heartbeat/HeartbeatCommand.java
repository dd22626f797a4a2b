package dev.hourglass.examples.heartbeat;

import dev.hourglass.examples.Terminal;
import dev.hourglass.time.NanoClock;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code ./hourglass heartbeat-server}: runs a {@link HeartbeatServer}, optionally with a {@link
 * LoadClient} against it in the same process, and prints live counts once a second until Ctrl-C or
 * {@code --seconds}.
 *
 * <p>Complexity: O(clients) per second for the client's counts. Ordering: not applicable.
 *
 * <p>Thread-safety: {@link #run} blocks its caller until the command ends; run one at a time.
 */
public final class HeartbeatCommand {

    /** The options and what they do, after {@code usage: ./hourglass }. */
    public static final String USAGE = "heartbeat-server [--host ADDR] [--port 7000] [--idle-ms 10000] [--quiet]\n"
            + "        [--clients N [--ping-ms 5000] [--silent F] [--silent-after-ms MS]] [--seconds S]\n"
            + "  a TCP server on the event loop that answers PING lines and kicks connections silent for\n"
            + "  longer than --idle-ms; prints live counts once a second until Ctrl-C or --seconds S\n"
            + "  --host, --port      where to listen (default 127.0.0.1:7000, port 0 for any free one)\n"
            + "  --quiet             leave out a line per kicked connection\n"
            + "  --clients N         also run a load client of N connections pinging every --ping-ms,\n"
            + "                      a fraction --silent of which stop after --silent-after-ms\n"
            + "                      (default 3 pings)";

    private HeartbeatCommand() {}

    /**
     * Runs the command; Ctrl-C stops it cleanly.
     *
     * @param args the options after the command name
     * @param out where counts and kicks go
     * @param err where errors go
     * @return the exit status: 0 done, 1 could not listen, 2 bad options
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        CountDownLatch stop = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        Thread hook = new Thread(
                () -> {
                    stop.countDown();
                    try {
                        // Let the command close its sockets and print its summary before the JVM exits.
                        done.await(5, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                "heartbeat-server-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            return run(args, out, err, Terminal.isTerminal(), stop);
        } finally {
            done.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // The JVM is shutting down (Ctrl-C): the hook is running and now returns.
            }
        }
    }

    /**
     * Runs the command until {@code stop} opens or {@code --seconds} pass.
     *
     * @param args the options after the command name
     * @param out where counts and kicks go
     * @param err where errors go
     * @param terminal true to redraw the status on one line
     * @param stop opened to stop early
     * @return the exit status: 0 done, 1 could not listen, 2 bad options
     */
    static int run(String[] args, PrintStream out, PrintStream err, boolean terminal, CountDownLatch stop) {
        HeartbeatOptions options;
        try {
            options = HeartbeatOptions.parse(args);
        } catch (IllegalArgumentException e) {
            err.println(e.getMessage());
            return 2;
        }
        InetSocketAddress bind = new InetSocketAddress(options.host(), options.port());
        if (bind.isUnresolved()) {
            err.println("--host cannot be resolved: " + options.host());
            return 2;
        }
        StatusLine status = new StatusLine(out, terminal);
        HeartbeatServer server;
        try {
            server = HeartbeatServer.builder()
                    .bind(bind)
                    .idleTimeout(Duration.ofMillis(options.idleMillis()))
                    .clock(NanoClock.system())
                    .kickLog(options.quiet() ? line -> {} : status::log)
                    .start();
        } catch (IOException e) {
            err.println("cannot listen on " + bind + ": " + e.getMessage());
            return 1;
        }
        LoadClient client = null;
        try {
            out.printf(
                    "heartbeat server listening on %s, idle timeout %d ms (%s)%n",
                    server.address(),
                    options.idleMillis(),
                    options.seconds() == 0 ? "Ctrl-C stops" : "for " + options.seconds() + " s");
            if (options.clients() > 0) {
                client = LoadClient.builder()
                        .server(server.address())
                        .connections(options.clients())
                        .pingInterval(Duration.ofMillis(options.pingMillis()))
                        .silent(options.silentClients())
                        .silentAfter(Duration.ofMillis(options.silentAfterMillis()))
                        .start();
                out.printf(
                        "load client: %d connections pinging every %d ms, %d of them go silent after %d ms%n",
                        options.clients(), options.pingMillis(), options.silentClients(), options.silentAfterMillis());
            }
            report(server, client, options, status, stop);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            status.finish();
            if (client != null) {
                client.close();
            }
            server.close();
        }
        summary(server.stats(), client, out);
        return 0;
    }

    /** Prints the counts once a second until stopped. */
    private static void report(
            HeartbeatServer server, LoadClient client, HeartbeatOptions options, StatusLine status, CountDownLatch stop)
            throws InterruptedException {
        long start = System.nanoTime();
        long lastPings = 0;
        for (long second = 1; options.seconds() == 0 || second <= options.seconds(); second++) {
            long wait = start + TimeUnit.SECONDS.toNanos(second) - System.nanoTime();
            if (stop.await(Math.max(0, wait), TimeUnit.NANOSECONDS)) {
                return;
            }
            HeartbeatStats stats = server.stats();
            StringBuilder line = new StringBuilder();
            line.append(String.format(
                    "%5d s  connected %d  kicked %d  accepted %d  pings/s %d",
                    second, stats.connected(), stats.kicked(), stats.accepted(), stats.pings() - lastPings));
            lastPings = stats.pings();
            if (client != null) {
                line.append(String.format(
                        "  | client: open %d, closed by server %d", client.open(), client.closedByServer()));
            }
            status.update(line.toString());
        }
    }

    private static void summary(HeartbeatStats stats, LoadClient client, PrintStream out) {
        out.printf(
                "server: accepted %d, kicked %d, disconnected %d, pings %d, bad lines %d%n",
                stats.accepted(), stats.kicked(), stats.disconnected(), stats.pings(), stats.badLines());
        if (client == null) {
            return;
        }
        int silent = 0;
        int silentKicked = 0;
        int pinging = 0;
        int pingingKicked = 0;
        for (LoadClient.Connection connection : client.connections()) {
            boolean kicked = connection.state() == LoadClient.State.CLOSED_BY_SERVER;
            if (connection.silent()) {
                silent++;
                silentKicked += kicked ? 1 : 0;
            } else {
                pinging++;
                pingingKicked += kicked ? 1 : 0;
            }
        }
        out.printf(
                "client: %d of %d silent connections kicked, %d of %d pinging connections kicked, %d connects failed, "
                        + "%d pongs%n",
                silentKicked, silent, pingingKicked, pinging, client.failed(), client.pongs());
    }
}
