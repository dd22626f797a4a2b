package dev.hourglass.examples.heartbeat;

import dev.hourglass.loop.EventLoop;
import dev.hourglass.time.NanoClock;
import dev.hourglass.timer.Timeout;
import dev.hourglass.timer.Timers;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * Opens N connections to a heartbeat server from its own {@link EventLoop}, each sending {@code
 * PING} as soon as it is connected and then every interval (phases spread evenly over one
 * interval); a chosen number of them, spread evenly over the indices, stop pinging a while after
 * connecting but stay open. It records, per
 * connection, whether the server closed it (end of stream or reset, seen from the client side), the
 * {@code PONG}s received and the longest gap between its own pings.
 *
 * <p>Complexity: O(1) per ping and per received byte. Ordering: not applicable.
 *
 * <p>Thread-safety: the counters, {@link #connections()}, the awaits and {@link #close()} are safe
 * from any thread; the connections' state is written on the client's loop thread only.
 */
final class LoadClient implements AutoCloseable {

    private static final byte[] PING = "PING\n".getBytes(StandardCharsets.US_ASCII);
    private static final int CONNECTS_PER_TURN = 32;
    private static final byte[] PONG = "PONG\n".getBytes(StandardCharsets.US_ASCII);

    /** Where a connection is. */
    enum State {
        /** Connect in progress. */
        CONNECTING,
        /** Connected and not closed by the server. */
        OPEN,
        /** The server closed it: end of stream or reset. */
        CLOSED_BY_SERVER,
        /** The connect failed. */
        FAILED
    }

    private final EventLoop loop;
    private final NanoClock clock = NanoClock.system();
    private final InetSocketAddress server;
    private final long pingNanos;
    private final long silentAfterNanos;
    private final List<Connection> connections;
    private final Object changed = new Object();
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicInteger settled = new AtomicInteger();
    private final AtomicInteger closedByServer = new AtomicInteger();
    private final AtomicInteger failed = new AtomicInteger();
    private final AtomicLong pingsSent = new AtomicLong();
    private final AtomicLong pongs = new AtomicLong();

    private LoadClient(Builder builder) {
        this.server = builder.server;
        this.pingNanos = builder.pingInterval.toNanos();
        this.silentAfterNanos = builder.silentAfter.toNanos();
        int n = builder.connections;
        List<Connection> list = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            // Exactly `silent` of the n indices, spread evenly.
            boolean silent = (long) (i + 1) * builder.silent / n > (long) i * builder.silent / n;
            list.add(new Connection(i, silent, pingNanos * i / n));
        }
        this.connections = List.copyOf(list);
        this.loop = EventLoop.open(Timers.builder().threadFactory(task -> {
            Thread thread = new Thread(task, "heartbeat-load-client");
            thread.setDaemon(true);
            return thread;
        }));
    }

    /**
     * Starts describing a load client.
     *
     * @return a new builder
     */
    static Builder builder() {
        return new Builder();
    }

    /**
     * Returns the connections, by index.
     *
     * @return every connection, connected or not
     */
    List<Connection> connections() {
        return connections;
    }

    /**
     * Returns how many connections are open now.
     *
     * @return connected and not closed by the server
     */
    int open() {
        return open.get();
    }

    /**
     * Returns how many connections the server closed.
     *
     * @return the count
     */
    int closedByServer() {
        return closedByServer.get();
    }

    /**
     * Returns how many connects failed.
     *
     * @return the count
     */
    int failed() {
        return failed.get();
    }

    /**
     * Returns how many pings were sent.
     *
     * @return the count
     */
    long pingsSent() {
        return pingsSent.get();
    }

    /**
     * Returns how many pongs were received.
     *
     * @return the count
     */
    long pongs() {
        return pongs.get();
    }

    /**
     * Waits until every connect has succeeded or failed.
     *
     * @param timeout how long to wait at most
     * @return true if all settled in time
     * @throws InterruptedException if interrupted while waiting
     */
    boolean awaitConnects(Duration timeout) throws InterruptedException {
        return await(() -> settled.get() == connections.size(), timeout);
    }

    /**
     * Waits until {@code condition} holds; it is checked whenever a connection changes state or
     * receives data.
     *
     * @param condition what to wait for; cheap, safe from any thread
     * @param timeout how long to wait at most
     * @return true if it held in time
     * @throws InterruptedException if interrupted while waiting
     */
    boolean await(BooleanSupplier condition, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (changed) {
            while (!condition.getAsBoolean()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(changed, left);
            }
            return true;
        }
    }

    /** Closes every connection and stops the loop. */
    @Override
    public void close() {
        loop.close();
    }

    private void start() {
        loop.start();
        loop.execute(() -> connectFrom(0));
    }

    /** Connects a batch per turn, so that the loop serves the connections already made meanwhile. */
    private void connectFrom(int first) {
        int end = Math.min(connections.size(), first + CONNECTS_PER_TURN);
        for (int i = first; i < end; i++) {
            connections.get(i).connect();
        }
        if (end < connections.size()) {
            loop.execute(() -> connectFrom(end));
        }
    }

    private void signal() {
        synchronized (changed) {
            changed.notifyAll();
        }
    }

    /** One client connection; its fields are written on the loop thread only. */
    final class Connection {
        private final int index;
        private final boolean silent;
        private final long phaseNanos;
        private final Outbox outbox = new Outbox(PING.length * 4);
        private final ByteBuffer in = ByteBuffer.allocate(256);
        private SocketChannel channel;
        private SelectionKey key;
        private Timeout pinger;
        private long silentAt;
        private long lastPing;

        /** The send times of the last pings, a ring; read only after the client is closed. */
        private final long[] recentPings = new long[16];

        private int pingCount;
        private int matched;
        private volatile State state = State.CONNECTING;
        private volatile InetSocketAddress localAddress;
        private volatile long pongCount;
        private volatile long badReplies;
        private volatile long maxPingGapNanos;
        private volatile boolean wentSilent;
        private volatile String failure;

        Connection(int index, boolean silent, long phaseNanos) {
            this.index = index;
            this.silent = silent;
            this.phaseNanos = phaseNanos;
        }

        /**
         * Returns the index.
         *
         * @return 0 to N - 1
         */
        int index() {
            return index;
        }

        /**
         * Tells whether this connection is one of those that go silent.
         *
         * @return true if it stops pinging after the silent-after delay
         */
        boolean silent() {
            return silent;
        }

        /**
         * Tells whether it has stopped pinging.
         *
         * @return true once a silent connection sent its last ping
         */
        boolean wentSilent() {
            return wentSilent;
        }

        /**
         * Returns the state.
         *
         * @return where the connection is
         */
        State state() {
            return state;
        }

        /**
         * Returns the local address, which the server sees as the remote one.
         *
         * @return the address, or null before connecting
         */
        InetSocketAddress localAddress() {
            return localAddress;
        }

        /**
         * Returns how many pongs it received.
         *
         * @return the count
         */
        long pongs() {
            return pongCount;
        }

        /**
         * Returns how many received lines were not {@code PONG}.
         *
         * @return the count
         */
        long badReplies() {
            return badReplies;
        }

        /**
         * Returns the longest time between two of its pings, which shows stalls of this client.
         *
         * @return nanoseconds
         */
        long maxPingGapNanos() {
            return maxPingGapNanos;
        }

        /**
         * Returns why the connect failed.
         *
         * @return the error, or null
         */
        String failure() {
            return failure;
        }

        /**
         * Returns the longest time this client sent no ping, among its last remembered pings up to
         * {@code nanos} and from the last of them to {@code nanos}: whether it really went silent
         * before a kick at {@code nanos}. Call it after {@link LoadClient#close()}.
         *
         * @param nanos a {@link System#nanoTime()} reading
         * @return the longest silence in nanoseconds, or empty if no remembered ping was sent by then
         */
        OptionalLong longestSilenceUpTo(long nanos) {
            long longest = -1;
            long previous = 0;
            boolean any = false;
            for (int i = Math.max(0, pingCount - recentPings.length); i < pingCount; i++) {
                long sent = recentPings[i % recentPings.length];
                if (sent - nanos > 0) {
                    break;
                }
                if (any) {
                    longest = Math.max(longest, sent - previous);
                }
                previous = sent;
                any = true;
            }
            return any ? OptionalLong.of(Math.max(longest, nanos - previous)) : OptionalLong.empty();
        }

        private void connect() {
            try {
                channel = SocketChannel.open();
                channel.configureBlocking(false);
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                boolean done = channel.connect(server);
                key = loop.register(channel, SelectionKey.OP_CONNECT, this::ready);
                if (done) {
                    connected();
                }
            } catch (IOException | RuntimeException e) {
                fail(e);
            }
        }

        private void ready(SelectionKey ready) {
            try {
                if (ready.isConnectable()) {
                    if (!channel.finishConnect()) {
                        return;
                    }
                    connected();
                }
                if (ready.isWritable()) {
                    flush();
                }
                if (ready.isReadable()) {
                    read();
                }
            } catch (IOException e) {
                if (state == State.CONNECTING) {
                    fail(e);
                } else {
                    closedByServer();
                }
            }
        }

        private void connected() throws IOException {
            localAddress = (InetSocketAddress) channel.getLocalAddress();
            key.interestOps(SelectionKey.OP_READ);
            long now = clock.nanoTime();
            silentAt = now + silentAfterNanos;
            state = State.OPEN;
            open.incrementAndGet();
            settled.incrementAndGet();
            signal();
            // Ping at once, like a hello, so that the server hears from it before the first period.
            ping();
            if (state == State.OPEN) {
                pinger = loop.scheduleAtFixedRate(this::ping, phaseNanos, pingNanos, TimeUnit.NANOSECONDS);
            }
        }

        private void ping() {
            if (state != State.OPEN) {
                if (pinger != null) {
                    pinger.cancel();
                }
                return;
            }
            long now = clock.nanoTime();
            if (silent && now - silentAt >= 0) {
                if (pinger != null) {
                    pinger.cancel();
                }
                wentSilent = true;
                return;
            }
            if (pingCount > 0) {
                maxPingGapNanos = Math.max(maxPingGapNanos, now - lastPing);
            }
            lastPing = now;
            recentPings[pingCount++ % recentPings.length] = now;
            // A full outbox means the server does not read: skip this ping rather than queue it.
            if (outbox.room() >= PING.length) {
                outbox.append(PING);
                pingsSent.incrementAndGet();
            }
            try {
                flush();
            } catch (IOException e) {
                closedByServer();
            }
        }

        private void flush() throws IOException {
            boolean empty = outbox.flush(channel);
            key.interestOps(SelectionKey.OP_READ | (empty ? 0 : SelectionKey.OP_WRITE));
        }

        private void read() throws IOException {
            int n = channel.read(in);
            if (n < 0) {
                closedByServer();
                return;
            }
            in.flip();
            long received = 0;
            while (in.hasRemaining()) {
                byte b = in.get();
                if (matched >= 0 && b == PONG[matched]) {
                    if (++matched == PONG.length) {
                        received++;
                        matched = 0;
                    }
                } else if (b == '\n') {
                    badReplies++;
                    matched = 0;
                } else {
                    // Not a pong: skip to the end of the line.
                    matched = -1;
                }
            }
            in.clear();
            if (received > 0) {
                pongCount += received;
                pongs.addAndGet(received);
                signal();
            }
        }

        private void closedByServer() {
            if (state != State.OPEN) {
                if (pinger != null) {
                    pinger.cancel();
                }
                return;
            }
            state = State.CLOSED_BY_SERVER;
            if (pinger != null) {
                pinger.cancel();
            }
            try {
                channel.close();
            } catch (IOException e) {
                // Closing a socket the peer already closed: nothing left to release.
            }
            open.decrementAndGet();
            closedByServer.incrementAndGet();
            signal();
        }

        private void fail(Exception e) {
            failure = e.toString();
            state = State.FAILED;
            if (channel != null) {
                try {
                    channel.close();
                } catch (IOException closeError) {
                    e.addSuppressed(closeError);
                }
            }
            failed.incrementAndGet();
            settled.incrementAndGet();
            signal();
        }

        @Override
        public String toString() {
            return "connection " + index + " (" + localAddress + ", " + (silent ? "silent" : "pinging") + ", " + state
                    + ", " + pongCount + " pongs, longest ping gap " + maxPingGapNanos / 1_000_000 + " ms)";
        }
    }

    /**
     * Describes a {@link LoadClient}, then starts it.
     *
     * <p>Complexity: O(1) per setting. Ordering: not applicable. Thread-safety: none.
     */
    static final class Builder {
        private InetSocketAddress server;
        private int connections = 100;
        private Duration pingInterval = Duration.ofSeconds(5);
        private int silent;
        private Duration silentAfter;

        private Builder() {}

        /**
         * Chooses the server to connect to.
         *
         * @param server its address, not null
         * @return this builder
         */
        Builder server(InetSocketAddress server) {
            this.server = Objects.requireNonNull(server, "server");
            return this;
        }

        /**
         * Chooses how many connections to open.
         *
         * @param connections at least 1
         * @return this builder
         */
        Builder connections(int connections) {
            if (connections < 1) {
                throw new IllegalArgumentException("connections must be at least 1: " + connections);
            }
            this.connections = connections;
            return this;
        }

        /**
         * Chooses how often each connection pings.
         *
         * @param pingInterval positive
         * @return this builder
         */
        Builder pingInterval(Duration pingInterval) {
            Objects.requireNonNull(pingInterval, "pingInterval");
            if (pingInterval.isNegative() || pingInterval.isZero()) {
                throw new IllegalArgumentException("pingInterval must be positive: " + pingInterval);
            }
            this.pingInterval = pingInterval;
            return this;
        }

        /**
         * Chooses how many connections go silent; they are spread evenly over the indices.
         *
         * @param silent 0 to the number of connections
         * @return this builder
         */
        Builder silent(int silent) {
            if (silent < 0) {
                throw new IllegalArgumentException("silent must not be negative: " + silent);
            }
            this.silent = silent;
            return this;
        }

        /**
         * Chooses how long after connecting a silent connection stops pinging; by default three ping
         * intervals.
         *
         * @param silentAfter not negative
         * @return this builder
         */
        Builder silentAfter(Duration silentAfter) {
            Objects.requireNonNull(silentAfter, "silentAfter");
            if (silentAfter.isNegative()) {
                throw new IllegalArgumentException("silentAfter must not be negative: " + silentAfter);
            }
            this.silentAfter = silentAfter;
            return this;
        }

        /**
         * Opens the loop and starts connecting; returns at once.
         *
         * @return the running client
         * @throws IllegalStateException if no server was given
         * @throws IllegalArgumentException if more connections go silent than there are
         */
        LoadClient start() {
            if (server == null) {
                throw new IllegalStateException("server address not set");
            }
            if (silent > connections) {
                throw new IllegalArgumentException(
                        "silent must be at most connections (" + connections + "): " + silent);
            }
            if (silentAfter == null) {
                silentAfter = pingInterval.multipliedBy(3);
            }
            LoadClient client = new LoadClient(this);
            client.start();
            return client;
        }
    }
}
