package dev.hourglass.examples.heartbeat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.sun.management.UnixOperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Real sockets over loopback under the system clock: 1,000 connections ping every 100 ms, 200 of
 * them go silent, the server's idle timeout is 300 ms. The awaits are generous (10 s) so that a slow
 * machine only makes the test slower. Exactly the silent connections are kicked, with one allowance:
 * a pinging client that this machine stalled for the idle timeout (its own send times, on the same
 * {@link System#nanoTime()} as the kick, prove it) was rightly kicked; such stalls are printed, and
 * more than half of the pinging clients stalled fails the test as unable to judge.
 */
class HeartbeatEndToEndTest {

    private static final int CONNECTIONS = 1_000;
    private static final int SILENT = 200;
    private static final Duration PING = Duration.ofMillis(100);
    private static final Duration IDLE = Duration.ofSeconds(1);
    private static final Duration PATIENCE = Duration.ofSeconds(10);

    /** Client sockets, server sockets, and room for the JVM's own (jars, selectors, pipes). */
    private static final long FDS_NEEDED = 2L * CONNECTIONS + 200;

    @Test
    void kicksExactlyTheSilentConnections() throws Exception {
        requireFileDescriptors();
        Map<String, Long> kickedAt = new ConcurrentHashMap<>();
        ConcurrentLinkedQueue<String> kicks = new ConcurrentLinkedQueue<>();
        HeartbeatStats stats;
        LoadClient client;
        try (HeartbeatServer server = HeartbeatServer.builder()
                .idleTimeout(IDLE)
                .kickLog(line -> {
                    kickedAt.put(kickedAddress(line), System.nanoTime());
                    kicks.add(line);
                })
                .start()) {
            client = LoadClient.builder()
                    .server(server.address())
                    .connections(CONNECTIONS)
                    .pingInterval(PING)
                    .silent(SILENT)
                    .silentAfter(Duration.ofMillis(500))
                    .start();
            try {
                assertThat(client.awaitConnects(PATIENCE))
                        .as("all connects settle within %s", PATIENCE)
                        .isTrue();
                assertThat(client.failed())
                        .as("failed connects: %s", failures(client))
                        .isZero();
                boolean silentKicked = client.await(
                        () -> client.connections().stream()
                                .filter(LoadClient.Connection::silent)
                                .allMatch(c -> c.state() == LoadClient.State.CLOSED_BY_SERVER),
                        PATIENCE);
                assertThat(silentKicked)
                        .as("the server closes the %d silent connections within %s", SILENT, PATIENCE)
                        .isTrue();
                // The pinging connections still open get pongs: two more each from now on.
                Map<LoadClient.Connection, Long> before = client.connections().stream()
                        .filter(c -> !c.silent())
                        .collect(Collectors.toMap(Function.identity(), LoadClient.Connection::pongs));
                boolean answered = client.await(
                        () -> before.entrySet().stream()
                                .allMatch(e -> e.getKey().state() != LoadClient.State.OPEN
                                        || e.getKey().pongs() >= e.getValue() + 2),
                        PATIENCE);
                assertThat(answered)
                        .as("pinging connections keep getting pongs")
                        .isTrue();
                stats = server.stats();
            } finally {
                client.close();
            }
            // The clients' disconnects are seen and counted.
            stats = awaitStats(server, st -> st.connected() == 0);
        }

        // A pinging connection may only be kicked if its client really sent nothing for the idle
        // timeout before the kick: a stall of the whole machine can do that to any client.
        List<LoadClient.Connection> pinging =
                client.connections().stream().filter(c -> !c.silent()).collect(Collectors.toList());
        List<String> stalled = new ArrayList<>();
        List<String> wronglyKicked = new ArrayList<>();
        for (LoadClient.Connection connection : pinging) {
            if (connection.state() != LoadClient.State.CLOSED_BY_SERVER) {
                continue;
            }
            long kick = kickedAt.get(connection.localAddress().toString());
            OptionalLong silence = connection.longestSilenceUpTo(kick);
            String description = connection + ", longest client-side silence before the kick "
                    + (silence.isPresent() ? silence.getAsLong() / 1_000_000 + " ms" : "unknown");
            if (silence.isPresent() && silence.getAsLong() >= IDLE.toNanos()) {
                stalled.add(description);
            } else {
                wronglyKicked.add(description);
            }
        }
        assertThat(wronglyKicked)
                .as("pinging connections kicked although they had pinged within %s", IDLE)
                .isEmpty();
        assertThat(stalled.size())
                .as(
                        "pinging connections kicked because this machine stalled the client for %s or more;"
                                + " too many to show that pinging clients are kept: %s",
                        IDLE, stalled)
                .isLessThanOrEqualTo(pinging.size() / 2);
        if (!stalled.isEmpty()) {
            System.out.println("note: the client stalled and was rightly kicked: " + stalled);
        }

        // The clients saw closed exactly the connections the server logged as kicked, save kicks
        // that a stalled client had no time to notice before it closed.
        Set<String> logged =
                kicks.stream().map(HeartbeatEndToEndTest::kickedAddress).collect(Collectors.toSet());
        assertThat(client.connections().stream()
                        .filter(c -> c.silent() || c.state() == LoadClient.State.CLOSED_BY_SERVER)
                        .map(c -> c.localAddress().toString()))
                .allSatisfy(address -> assertThat(logged).contains(address));
        assertThat(kicks).hasSize(logged.size());
        assertThat(kicks.stream().map(HeartbeatEndToEndTest::silentMillis))
                .as("silence logged")
                .allSatisfy(ms -> assertThat(ms).isGreaterThanOrEqualTo(IDLE.toMillis()));
        assertThat(client.connections())
                .allSatisfy(c ->
                        assertThat(c.badReplies()).as("bad replies to %s", c).isZero());

        // Counted once the clients closed and the server saw every disconnect.
        assertThat(stats.accepted()).isEqualTo(CONNECTIONS);
        assertThat(stats.kicked()).isEqualTo(kicks.size());
        assertThat(stats.kicked() + stats.disconnected()).isEqualTo(CONNECTIONS);
        assertThat(stats.badLines()).isZero();
        assertThat(stats.pings()).isGreaterThanOrEqualTo(client.pongs());
    }

    private static HeartbeatStats awaitStats(HeartbeatServer server, java.util.function.Predicate<HeartbeatStats> done)
            throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        HeartbeatStats stats = server.stats();
        // The server offers no change notification; poll its counters until they settle.
        while (!done.test(stats) && System.nanoTime() - deadline < 0) {
            Thread.sleep(10);
            stats = server.stats();
        }
        assertThat(done.test(stats)).as("server counters settle: %s", stats).isTrue();
        return stats;
    }

    private static String kickedAddress(String line) {
        // "kicked /127.0.0.1:5000 after 312 ms of silence"
        return line.split(" ")[1];
    }

    private static long silentMillis(String line) {
        return Long.parseLong(line.split(" ")[3]);
    }

    private static List<String> failures(LoadClient client) {
        return client.connections().stream()
                .filter(c -> c.failure() != null)
                .limit(5)
                .map(LoadClient.Connection::failure)
                .collect(Collectors.toList());
    }

    private static void requireFileDescriptors() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (!(os instanceof UnixOperatingSystemMXBean)) {
            return;
        }
        UnixOperatingSystemMXBean unix = (UnixOperatingSystemMXBean) os;
        long free = unix.getMaxFileDescriptorCount() - unix.getOpenFileDescriptorCount();
        if (free < FDS_NEEDED) {
            fail(
                    "this test opens %d connections and needs about %d free file descriptors, but the limit"
                            + " (ulimit -n) is %d with %d open: raise it, e.g. ulimit -n 4096",
                    CONNECTIONS, FDS_NEEDED, unix.getMaxFileDescriptorCount(), unix.getOpenFileDescriptorCount());
        }
    }
}
