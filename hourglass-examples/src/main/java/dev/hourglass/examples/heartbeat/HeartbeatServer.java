package dev.hourglass.examples.heartbeat;

import dev.hourglass.loop.EventLoop;
import dev.hourglass.patterns.IdleDetector;
import dev.hourglass.time.NanoClock;
import dev.hourglass.timer.Timers;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * A TCP heartbeat server on one {@link EventLoop}: clients send {@code PING} lines and get {@code
 * PONG} lines back; a connection silent for longer than the idle timeout is closed ("kicked") and
 * the kick is logged, one line each, with the client's address and how long it was silent.
 *
 * <p>Protocol: lines end with {@code \n} (a {@code \r} before it is dropped). {@code PING} gets
 * {@code PONG}; an empty line is ignored; any other line gets {@code ERR unknown command}, and a
 * line longer than 255 bytes gets {@code ERR line too long}. Every complete line, even a bad one,
 * counts as activity; bytes without a newline do not, so a client cannot stay alive by trickling an
 * endless line. Replies wait in a bounded per-connection buffer when the socket cannot take them
 * (the connection then wants {@code OP_WRITE}); when that buffer is nearly full the server stops
 * reading from that client until it drains.
 *
 * <p>Idle detection: every connection is a key of an {@link IdleDetector} driven by the same loop,
 * touched on accept and on each read that brought complete lines, so the kick runs on the loop
 * thread and closes the channel directly. Before kicking it reads the socket once more, so a line
 * that arrived during a slow turn of the loop saves the connection.
 *
 * <p>Complexity: O(1) per connection event and per line besides the detector's touch. Ordering:
 * replies in the order of the lines. Thread-safety: {@link #stats()}, {@link #address()} and {@link
 * #close()} are safe from any thread; everything else runs on the loop thread.
 */
public final class HeartbeatServer implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger("dev.hourglass.examples.heartbeat");

    private static final int LINE_CAPACITY = 256;
    private static final int OUTBOX_CAPACITY = 1024;
    private static final byte[] PONG = "PONG\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] UNKNOWN = "ERR unknown command\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TOO_LONG = "ERR line too long\n".getBytes(StandardCharsets.US_ASCII);

    /** Room for the longest reply: below it the connection stops reading until the outbox drains. */
    private static final int REPLY_ROOM = Math.max(PONG.length, Math.max(UNKNOWN.length, TOO_LONG.length));

    private static final int ACCEPTS_PER_TURN = 256;
    private static final Duration ACCEPT_BACKOFF = Duration.ofMillis(100);

    private final EventLoop loop;
    private final NanoClock clock;
    private final Duration idleTimeout;
    private final Consumer<? super String> kickLog;
    private final ServerSocketChannel server;
    private final InetSocketAddress address;
    private final IdleDetector<Connection> idle;

    /** Loop thread only. */
    private final Set<Connection> connections = new HashSet<>();

    private final AtomicBoolean closed = new AtomicBoolean();
    private final AtomicLong connected = new AtomicLong();
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong kicked = new AtomicLong();
    private final AtomicLong disconnected = new AtomicLong();
    private final AtomicLong shutDown = new AtomicLong();
    private final AtomicLong pings = new AtomicLong();
    private final AtomicLong badLines = new AtomicLong();

    private HeartbeatServer(Builder builder, EventLoop loop, ServerSocketChannel server) throws IOException {
        this.loop = loop;
        this.clock = builder.clock;
        this.idleTimeout = builder.idleTimeout;
        this.kickLog = builder.kickLog;
        this.server = server;
        this.address = (InetSocketAddress) server.getLocalAddress();
        this.idle = IdleDetector.create(loop, clock, idleTimeout, this::kick);
        loop.register(server, SelectionKey.OP_ACCEPT, this::accept);
    }

    /**
     * Starts describing a server: by default on 127.0.0.1, an ephemeral port, a 10 s idle timeout,
     * the system clock, and kicks logged at INFO to logger {@code dev.hourglass.examples.heartbeat}.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Returns the address the server listens on, with the actual port when bound to port 0.
     *
     * @return the bound address
     */
    public InetSocketAddress address() {
        return address;
    }

    /**
     * Returns the idle timeout.
     *
     * @return how long a connection may stay silent
     */
    public Duration idleTimeout() {
        return idleTimeout;
    }

    /**
     * Reads the counters.
     *
     * @return a snapshot of them
     */
    public HeartbeatStats stats() {
        return new HeartbeatStats(
                connected.get(),
                accepted.get(),
                kicked.get(),
                disconnected.get(),
                shutDown.get(),
                pings.get(),
                badLines.get());
    }

    /**
     * Closes the listening socket and every connection (counted as shut down, not kicked), stops
     * the detector and the loop, and waits for the loop to stop. A second call does nothing.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            loop.execute(this::closeAll);
        } catch (RejectedExecutionException e) {
            // The loop already stopped; it closed every channel as it did.
            idle.close();
        }
        loop.close();
    }

    private void closeAll() {
        closeQuietly(server);
        for (Connection connection : List.copyOf(connections)) {
            connection.close(shutDown);
        }
        idle.close();
    }

    private void accept(SelectionKey key) {
        for (int i = 0; i < ACCEPTS_PER_TURN; i++) {
            SocketChannel channel;
            try {
                channel = server.accept();
            } catch (IOException e) {
                // Out of file descriptors, most likely: stop accepting for a moment instead of
                // spinning on a listening socket that stays ready.
                LOG.log(System.Logger.Level.WARNING, "accept failed; pausing accepts for " + ACCEPT_BACKOFF, e);
                key.interestOps(0);
                loop.schedule(() -> resumeAccepting(key), ACCEPT_BACKOFF);
                return;
            }
            if (channel == null) {
                return;
            }
            try {
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                Connection connection = new Connection(channel, channel.getRemoteAddress());
                connection.key = loop.register(channel, SelectionKey.OP_READ, connection::ready);
                connections.add(connection);
                accepted.incrementAndGet();
                connected.incrementAndGet();
                connection.touch();
            } catch (IOException e) {
                // The client left between connect and accept.
                closeQuietly(channel);
            }
        }
    }

    private void resumeAccepting(SelectionKey key) {
        if (key.isValid()) {
            key.interestOps(SelectionKey.OP_ACCEPT);
        }
    }

    private void kick(Connection connection) {
        // The loop reads before it runs timers, but a turn slowed down by a busy machine can let a
        // line arrive in between: look once more before kicking.
        if (!connection.open || connection.heardFromJustNow()) {
            return;
        }
        if (connection.close(kicked)) {
            long silentMillis = (clock.nanoTime() - connection.lastActive) / 1_000_000;
            kickLog.accept("kicked " + connection.remote + " after " + silentMillis + " ms of silence");
        }
    }

    private static void closeQuietly(java.io.Closeable closeable) {
        try {
            closeable.close();
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, "closing " + closeable + " failed", e);
        }
    }

    /** One client, on the loop thread. */
    private final class Connection {
        final SocketChannel channel;
        final SocketAddress remote;
        final LineDecoder decoder = new LineDecoder(LINE_CAPACITY);
        final Outbox outbox = new Outbox(OUTBOX_CAPACITY);
        SelectionKey key;
        long lastActive;
        boolean open = true;

        Connection(SocketChannel channel, SocketAddress remote) {
            this.channel = channel;
            this.remote = remote;
        }

        void touch() {
            lastActive = clock.nanoTime();
            idle.touch(this);
        }

        void ready(SelectionKey ready) {
            try {
                if (ready.isReadable() && channel.read(decoder.buffer()) < 0) {
                    close(disconnected);
                    return;
                }
                serve();
            } catch (IOException e) {
                // Reset by the client, typically.
                close(disconnected);
                return;
            }
            updateInterest();
        }

        /** Reads what has arrived; true if it held a complete line or the connection ended. */
        boolean heardFromJustNow() {
            long before = lastActive;
            try {
                if (channel.read(decoder.buffer()) < 0) {
                    close(disconnected);
                    return true;
                }
                serve();
            } catch (IOException e) {
                close(disconnected);
                return true;
            }
            updateInterest();
            return lastActive != before;
        }

        private void updateInterest() {
            boolean congested = outbox.room() < REPLY_ROOM;
            key.interestOps((congested ? 0 : SelectionKey.OP_READ) | (outbox.isEmpty() ? 0 : SelectionKey.OP_WRITE));
        }

        /** Answers buffered lines while there is room for the answers, then flushes. */
        private void serve() throws IOException {
            boolean active = false;
            while (true) {
                if (outbox.room() < REPLY_ROOM) {
                    outbox.flush(channel);
                    if (outbox.room() < REPLY_ROOM) {
                        break;
                    }
                }
                LineDecoder.Line line = decoder.next();
                if (line == null) {
                    break;
                }
                active = true;
                answer(line);
            }
            outbox.flush(channel);
            if (active) {
                touch();
            }
        }

        private void answer(LineDecoder.Line line) {
            switch (line) {
                case PING:
                    pings.incrementAndGet();
                    outbox.append(PONG);
                    break;
                case BLANK:
                    break;
                case UNKNOWN:
                    badLines.incrementAndGet();
                    outbox.append(UNKNOWN);
                    break;
                case TOO_LONG:
                    badLines.incrementAndGet();
                    outbox.append(TOO_LONG);
                    break;
            }
        }

        /** Closes once, counting the close in {@code reason}; returns false if already closed. */
        boolean close(AtomicLong reason) {
            if (!open) {
                return false;
            }
            open = false;
            idle.remove(this);
            connections.remove(this);
            closeQuietly(channel);
            connected.decrementAndGet();
            reason.incrementAndGet();
            return true;
        }
    }

    /**
     * Describes a {@link HeartbeatServer}, then starts it.
     *
     * <p>Complexity: O(1) per setting. Ordering: not applicable. Thread-safety: none; configure on
     * one thread.
     */
    public static final class Builder {
        private InetSocketAddress bind = new InetSocketAddress("127.0.0.1", 0);
        private Duration idleTimeout = Duration.ofSeconds(10);
        private NanoClock clock = NanoClock.system();
        private Consumer<? super String> kickLog = line -> LOG.log(System.Logger.Level.INFO, line);
        private int backlog = 1024;

        private Builder() {}

        /**
         * Chooses the address to listen on; port 0 picks a free port ({@link #address()} tells which).
         *
         * @param bind the address, not null
         * @return this builder
         */
        public Builder bind(InetSocketAddress bind) {
            this.bind = Objects.requireNonNull(bind, "bind");
            return this;
        }

        /**
         * Chooses how long a connection may stay silent before it is closed.
         *
         * @param idleTimeout positive
         * @return this builder
         * @throws IllegalArgumentException if {@code idleTimeout} is not positive
         */
        public Builder idleTimeout(Duration idleTimeout) {
            Objects.requireNonNull(idleTimeout, "idleTimeout");
            if (idleTimeout.isNegative() || idleTimeout.isZero()) {
                throw new IllegalArgumentException("idleTimeout must be positive: " + idleTimeout);
            }
            this.idleTimeout = idleTimeout;
            return this;
        }

        /**
         * Chooses the clock of the loop and the idle detector.
         *
         * @param clock the clock, not null
         * @return this builder
         */
        public Builder clock(NanoClock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * Chooses where kick lines go; it is called on the loop thread, so it must not block long.
         *
         * @param kickLog receives one line per kick, not null
         * @return this builder
         */
        public Builder kickLog(Consumer<? super String> kickLog) {
            this.kickLog = Objects.requireNonNull(kickLog, "kickLog");
            return this;
        }

        /**
         * Chooses how many connections may wait to be accepted (the OS may cap it lower).
         *
         * @param backlog at least 1
         * @return this builder
         * @throws IllegalArgumentException if {@code backlog} is less than 1
         */
        public Builder backlog(int backlog) {
            if (backlog < 1) {
                throw new IllegalArgumentException("backlog must be at least 1: " + backlog);
            }
            this.backlog = backlog;
            return this;
        }

        /**
         * Binds the socket and starts the loop thread.
         *
         * @return the running server
         * @throws IOException if the address cannot be bound
         */
        public HeartbeatServer start() throws IOException {
            EventLoop loop = EventLoop.open(Timers.builder().clock(clock).threadFactory(task -> {
                Thread thread = new Thread(task, "heartbeat-server");
                thread.setDaemon(true);
                return thread;
            }));
            ServerSocketChannel server = null;
            try {
                server = ServerSocketChannel.open();
                server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
                server.bind(bind, backlog);
                HeartbeatServer heartbeat = new HeartbeatServer(this, loop, server);
                loop.start();
                return heartbeat;
            } catch (IOException | RuntimeException e) {
                if (server != null) {
                    closeQuietly(server);
                }
                loop.close();
                throw e;
            }
        }
    }
}
