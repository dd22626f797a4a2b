package dev.hourglass.loop;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hourglass.queue.TimerStructure;
import dev.hourglass.time.ManualNanoClock;
import dev.hourglass.timer.Timeout;
import dev.hourglass.timer.TimerBuilder;
import dev.hourglass.timer.Timers;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The event-loop driver with real sockets on loopback: I/O and timers on one thread, hand-offs from
 * other threads, failures and closing. Timing semantics run under a manual clock; the one test under
 * the system clock paces its client by the timer's own ticks, never by sleeping.
 */
@org.junit.jupiter.api.Timeout(60)
class EventLoopTest {

    private static final Duration IDLE = Duration.ofSeconds(10);

    private final ManualNanoClock clock = new ManualNanoClock(0);
    private final BlockingQueue<String> events = new LinkedBlockingQueue<>();
    private final Queue<String> offLoop = new ConcurrentLinkedQueue<>();
    private final List<EventLoop> loops = new ArrayList<>();
    private final List<Client> clients = new ArrayList<>();
    private volatile Thread loopThread;

    @AfterEach
    void tearDown() throws IOException {
        for (Client client : clients) {
            client.close();
        }
        for (EventLoop loop : loops) {
            loop.close();
        }
        assertThat(offLoop).as("events recorded off the loop thread").isEmpty();
    }

    // ---- I/O and timers on one thread ----

    @Test
    void ioAndTimersInterleaveOnTheLoopThread() throws Exception {
        EventLoop loop = open(Timers.builder().clock(clock));
        EchoServer server = new EchoServer(loop, null);
        loop.scheduleAtFixedRate(() -> record("tick"), Duration.ofSeconds(1), Duration.ofSeconds(1));
        loop.start();

        Client client = server.connect();
        expect("accept:c1");
        for (int i = 1; i <= 3; i++) {
            client.send("m" + i);
            assertThat(client.readLine()).isEqualTo("m" + i);
            expect("read:c1:m" + i);
            clock.advance(Duration.ofSeconds(1));
            expect("tick");
        }
        assertThat(loopThread).isNotSameAs(Thread.currentThread());
        assertThat(events).isEmpty();
    }

    @Test
    void idleTimeoutClosesOnlyTheSilentConnection() throws Exception {
        EventLoop loop = open(Timers.builder().clock(clock));
        EchoServer server = new EchoServer(loop, IDLE);
        loop.start();
        Client chatty = server.connect();
        expect("accept:c1");
        Client silent = server.connect();
        expect("accept:c2");

        for (int second = 4; second <= 8; second += 4) {
            clock.advance(Duration.ofSeconds(4));
            chatty.send("ping" + second);
            assertThat(chatty.readLine()).isEqualTo("ping" + second);
            expect("read:c1:ping" + second);
        }
        clock.advance(Duration.ofSeconds(4)); // 12 s: c2 silent since 0, c1 since 8
        expect("idle:c2");
        assertThat(silent.readLine()).as("the silent client is closed").isNull();
        chatty.send("still here");
        assertThat(chatty.readLine()).isEqualTo("still here");
        expect("read:c1:still here");

        clock.advance(IDLE);
        expect("idle:c1");
        assertThat(chatty.readLine()).isNull();
    }

    @Test
    void periodicTimerTicksBetweenMessagesUnderTheSystemClock() throws Exception {
        EventLoop loop = open(Timers.builder().structure(TimerStructure.BINARY_HEAP));
        EchoServer server = new EchoServer(loop, null);
        Semaphore ticks = new Semaphore(0);
        loop.scheduleAtFixedRate(
                () -> {
                    record("tick");
                    ticks.release();
                },
                Duration.ofMillis(2),
                Duration.ofMillis(2));
        loop.start();

        Client client = server.connect();
        for (int i = 1; i <= 5; i++) {
            // Space the messages by the timer itself: at least one tick after the last echo.
            ticks.drainPermits();
            assertThat(ticks.tryAcquire(10, SECONDS)).isTrue();
            client.send("m" + i);
            assertThat(client.readLine()).isEqualTo("m" + i);
        }
        assertThat(loop.stop()).hasSize(1);

        List<String> log = new ArrayList<>(events);
        List<Integer> reads = new ArrayList<>();
        for (int i = 0; i < log.size(); i++) {
            if (log.get(i).startsWith("read:")) {
                reads.add(i);
            }
        }
        assertThat(reads).hasSize(5);
        assertThat(log.subList(0, reads.get(0))).contains("accept:c1", "tick");
        for (int i = 1; i < reads.size(); i++) {
            assertThat(log.subList(reads.get(i - 1), reads.get(i)))
                    .as("between message %d and %d", i, i + 1)
                    .contains("tick");
        }
    }

    // ---- scheduling from the loop thread and from others ----

    @Test
    void timersFromTheLoopThreadAndFromOthersRunOnTheLoopInDeadlineOrder() throws Exception {
        EventLoop loop = open(Timers.builder().clock(clock).structure(TimerStructure.BINARY_HEAP));
        loop.start();
        CountDownLatch scheduled = new CountDownLatch(1);
        loop.execute(() -> {
            loop.schedule(() -> record("loop 3s"), Duration.ofSeconds(3));
            loop.schedule(() -> record("loop 1s"), Duration.ofSeconds(1));
            scheduled.countDown();
        });
        assertThat(scheduled.await(10, SECONDS)).isTrue();
        loop.schedule(() -> record("other 2s"), Duration.ofSeconds(2));
        // Let the loop take the hand-off first: a turn fires what is already queued before it
        // applies the inbox, so a jump over both would run "loop 3s" before "other 2s".
        awaitTurn(loop);

        clock.advance(Duration.ofSeconds(3));
        expect("loop 1s");
        expect("other 2s");
        expect("loop 3s");
    }

    @Test
    void anEarlierTimerFromAnotherThreadWakesTheSelectorWithoutAClockJump() throws Exception {
        EventLoop loop = open(Timers.builder().clock(clock).structure(TimerStructure.BINARY_HEAP));
        Timeout far = loop.schedule(() -> record("far"), Duration.ofHours(1));
        loop.start();
        awaitTurn(loop); // the loop has taken the far timer and selects towards it

        // The clock never moves: only the hand-off's wake-up can end a select of an hour.
        loop.schedule(() -> record("now"), Duration.ZERO);
        expect("now");
        assertThat(far.isExpired()).isFalse();
        assertThat(far.remaining(SECONDS)).isEqualTo(3600);
    }

    @Test
    void anEarlierTimerFromAnotherThreadFiresOnTimeUnderTheSystemClock() throws Exception {
        EventLoop loop = open(Timers.builder().structure(TimerStructure.BINARY_HEAP));
        loop.schedule(() -> record("far"), Duration.ofHours(1));
        loop.start();
        awaitTurn(loop);

        CountDownLatch fired = new CountDownLatch(1);
        long[] firedAt = new long[1];
        long start = System.nanoTime();
        loop.schedule(
                () -> {
                    firedAt[0] = System.nanoTime();
                    fired.countDown();
                },
                Duration.ofMillis(20));
        assertThat(fired.await(10, SECONDS)).isTrue();
        assertThat(firedAt[0] - start)
                .as("never early")
                .isGreaterThanOrEqualTo(Duration.ofMillis(20).toNanos());
    }

    @Test
    void aClockJumpWakesTheLoopSleepingTowardsALaterDeadline() throws Exception {
        EventLoop loop = open(Timers.builder().clock(clock));
        loop.schedule(() -> record("1h"), Duration.ofHours(1));
        loop.schedule(() -> record("2h"), Duration.ofHours(2));
        loop.start();
        awaitTurn(loop); // selecting for an hour of real time: only the jump can wake it

        clock.advance(Duration.ofHours(1));
        expect("1h");
        clock.advance(Duration.ofHours(1).minusMillis(1));
        awaitTurn(loop);
        assertThat(events).as("nothing early").isEmpty();
        clock.advance(Duration.ofMillis(1));
        expect("2h");
    }

    // ---- execute and register ----

    @Test
    void executedTasksRunOnTheLoopInOrderAndAFailingOneIsLogged() throws Exception {
        try (LogCapture log = new LogCapture()) {
            EventLoop loop = open(Timers.builder().clock(clock));
            loop.start();
            loop.execute(() -> record("first"));
            loop.execute(() -> {
                throw new IllegalStateException("task failed on purpose");
            });
            loop.execute(() -> record("third"));
            expect("first");
            expect("third");
            assertThat(log.next().getThrown()).hasMessage("task failed on purpose");
            assertThat(loop.isClosed()).isFalse();
        }
    }

    @Test
    void aStrayInterruptOfTheLoopThreadDoesNotOutliveItsTurn() throws Exception {
        // Left set, it would make every select return at once: the loop would spin.
        EventLoop loop = open(Timers.builder().clock(clock));
        loop.start();
        loop.execute(() -> {
            Thread.currentThread().interrupt();
            loop.execute(() -> record("interrupted: " + Thread.currentThread().isInterrupted()));
        });
        expect("interrupted: false");
    }

    @Test
    void registerRunsOnTheLoopThreadOrBeforeTheLoopStarts() throws Exception {
        EventLoop loop = open(Timers.builder().clock(clock));
        loop.start();
        awaitTurn(loop);
        ServerSocketChannel channel = ServerSocketChannel.open().bind(loopback());
        assertThatThrownBy(() -> loop.register(channel, SelectionKey.OP_ACCEPT, key -> {}))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("execute");

        EchoServer server = new EchoServer(loop, null, channel);
        loop.execute(() -> {
            try {
                server.register();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        Client client = server.connect();
        expect("accept:c1");
        client.send("hello");
        assertThat(client.readLine()).isEqualTo("hello");
    }

    @Test
    void registerRefusesBadArguments() throws Exception {
        EventLoop loop = open(Timers.builder().clock(clock));
        try (ServerSocketChannel channel = ServerSocketChannel.open()) {
            assertThatThrownBy(() -> loop.register(null, SelectionKey.OP_ACCEPT, key -> {}))
                    .isInstanceOf(NullPointerException.class)
                    .hasMessage("channel");
            assertThatThrownBy(() -> loop.register(channel, SelectionKey.OP_ACCEPT, null))
                    .isInstanceOf(NullPointerException.class)
                    .hasMessage("handler");
            assertThatThrownBy(() -> loop.register(channel, SelectionKey.OP_READ, key -> {}))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("ops 1 not supported")
                    .hasMessageContaining("valid ops are 16");
            assertThatThrownBy(() -> loop.execute(null))
                    .isInstanceOf(NullPointerException.class)
                    .hasMessage("task");
            assertThat(channel.isBlocking()).as("left as it was").isTrue();
        }
    }

    // ---- failures ----

    @Test
    void aHandlerExceptionClosesOnlyItsChannelAndIsLogged() throws Exception {
        try (LogCapture log = new LogCapture()) {
            EventLoop loop = open(Timers.builder().clock(clock));
            EchoServer server = new EchoServer(loop, null);
            loop.start();
            Client io = server.connect();
            expect("accept:c1");
            Client runtime = server.connect();
            expect("accept:c2");
            Client bystander = server.connect();
            expect("accept:c3");

            io.send("boom");
            expect("read:c1:boom");
            assertThat(io.readLine()).isNull();
            assertThat(log.next().getThrown()).isInstanceOf(IOException.class).hasMessage("boom from c1");

            runtime.send("crash");
            expect("read:c2:crash");
            assertThat(runtime.readLine()).isNull();
            assertThat(log.next().getThrown())
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("crash from c2");

            bystander.send("fine");
            assertThat(bystander.readLine()).isEqualTo("fine");
            assertThat(loop.isClosed()).isFalse();
        }
    }

    // ---- closing ----

    @Test
    void closeFromAnotherThreadStopsTheLoopAndClosesItsChannels() throws Exception {
        EventLoop loop = open(Timers.builder().clock(clock));
        EchoServer server = new EchoServer(loop, null);
        Timeout once = loop.schedule(() -> record("once"), Duration.ofHours(1));
        Timeout periodic = loop.scheduleAtFixedRate(() -> record("tick"), Duration.ofHours(1), Duration.ofHours(1));
        loop.start();
        Client client = server.connect();
        expect("accept:c1");

        assertThat(loop.stop()).containsExactlyInAnyOrder(once, periodic);
        assertThat(once.isCancelled()).isTrue();
        assertThat(periodic.isCancelled()).isTrue();
        loopThread.join(SECONDS.toMillis(10));
        assertThat(loopThread.isAlive()).isFalse();
        assertThat(server.channel.isOpen()).isFalse();
        assertThat(client.readLine()).as("the accepted connection is closed").isNull();

        assertThat(loop.isClosed()).isTrue();
        assertThat(loop.stop()).isEmpty();
        assertThatThrownBy(() -> loop.schedule(() -> {}, Duration.ZERO))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("timer is closed");
        assertThatThrownBy(() -> loop.execute(() -> {}))
                .isInstanceOf(RejectedExecutionException.class)
                .hasMessage("event loop is closed");
        try (ServerSocketChannel channel = ServerSocketChannel.open()) {
            assertThatThrownBy(() -> loop.register(channel, SelectionKey.OP_ACCEPT, key -> {}))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("event loop is closed");
        }
        assertThatThrownBy(loop::start).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(loop::run).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void closeFromAHandlerStopsTheLoopAfterItsTurn() throws Exception {
        EventLoop loop = open(Timers.builder().clock(clock));
        EchoServer server = new EchoServer(loop, null);
        Timeout pending = loop.schedule(() -> record("never"), Duration.ofHours(1));
        loop.start();
        Client client = server.connect();
        expect("accept:c1");

        client.send("quit");
        expect("read:c1:quit");
        expect("closed:[]");
        assertThat(client.readLine()).isNull();
        loopThread.join(SECONDS.toMillis(10));
        assertThat(loopThread.isAlive()).isFalse();
        assertThat(pending.isCancelled()).isTrue();
        assertThat(loop.isClosed()).isTrue();
        assertThat(loop.stop()).isEmpty();
    }

    @Test
    void tasksAcceptedBeforeCloseStillRun() throws Exception {
        EventLoop loop = open(Timers.builder().clock(clock));
        loop.start();
        loop.execute(() -> {
            loop.execute(() -> record("accepted before close"));
            loop.close();
            try {
                loop.execute(() -> record("after close"));
            } catch (RejectedExecutionException e) {
                record("rejected: " + e.getMessage());
            }
        });
        expect("rejected: event loop is closed");
        expect("accepted before close");
        loopThread.join(SECONDS.toMillis(10));
        assertThat(loopThread.isAlive()).isFalse();
        assertThat(events).isEmpty();
    }

    @Test
    void aChannelRegisteredOnTheLoopWhileClosingIsClosedWithTheOthers() throws Exception {
        EventLoop loop = open(Timers.builder().clock(clock));
        loop.start();
        Pipe pipe = Pipe.open();
        loop.execute(() -> {
            loop.close();
            try {
                loop.register(pipe.source(), SelectionKey.OP_READ, key -> {});
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            record("registered while closing");
        });
        expect("registered while closing");
        loopThread.join(SECONDS.toMillis(10));
        assertThat(loopThread.isAlive()).isFalse();
        assertThat(pipe.source().isOpen()).isFalse();
        pipe.sink().close();
    }

    @Test
    void runDrivesTheLoopOnTheCallingThreadUntilClosed() {
        loopThread = Thread.currentThread();
        EventLoop loop = open(Timers.builder().clock(clock).structure(TimerStructure.BINARY_HEAP));
        loop.schedule(
                () -> {
                    record("timer");
                    record("closed:" + loop.stop());
                },
                Duration.ZERO);
        loop.execute(() -> record("task"));

        loop.run();
        // One turn: executed tasks before due timers.
        assertThat(events).containsExactly("task", "timer", "closed:[]");
        assertThat(loop.isClosed()).isTrue();
    }

    @Test
    void closingALoopThatNeverRanReturnsItsTimeouts() {
        EventLoop loop = open(Timers.builder().clock(clock));
        Timeout timeout = loop.schedule(() -> record("never"), Duration.ofSeconds(1));
        assertThat(loop.stop()).containsExactly(timeout);
        assertThat(timeout.isCancelled()).isTrue();
        assertThatThrownBy(loop::run).isInstanceOf(IllegalStateException.class).hasMessage("event loop is closed");
    }

    @Test
    void startTwiceIsRefused() {
        EventLoop loop = open(Timers.builder().clock(clock));
        loop.start();
        assertThatThrownBy(loop::start)
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("event loop already started");
        assertThatThrownBy(loop::run)
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("event loop already started");
    }

    // ---- helpers ----

    private EventLoop open(TimerBuilder builder) {
        builder.threadFactory(task -> {
            Thread thread = new Thread(task, "event-loop-test");
            thread.setDaemon(true);
            loopThread = thread;
            return thread;
        });
        EventLoop loop = EventLoop.open(builder);
        loops.add(loop);
        return loop;
    }

    /**
     * Returns once the loop has run a whole timer pass after this call, so it has applied every
     * hand-off made before it: a task handed over by a task runs only in the next turn.
     */
    private static void awaitTurn(EventLoop loop) throws InterruptedException {
        CountDownLatch turned = new CountDownLatch(1);
        loop.execute(() -> loop.execute(turned::countDown));
        assertThat(turned.await(10, SECONDS)).isTrue();
    }

    private void record(String event) {
        if (Thread.currentThread() != loopThread) {
            offLoop.add(event + " on " + Thread.currentThread().getName());
        }
        events.add(event);
    }

    private void expect(String event) throws InterruptedException {
        assertThat(events.poll(10, SECONDS)).as("the next event").isEqualTo(event);
    }

    private static InetSocketAddress loopback() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    }

    /**
     * A line-echo server on the loop. Connections are named c1, c2, ... in accept order; "boom" and
     * "crash" make the handler throw, "quit" closes the loop from the handler.
     */
    private final class EchoServer {

        final EventLoop loop;
        final Duration idle;
        final ServerSocketChannel channel;
        private int accepted;

        EchoServer(EventLoop loop, Duration idle) throws IOException {
            this(loop, idle, ServerSocketChannel.open().bind(loopback()));
            register();
        }

        EchoServer(EventLoop loop, Duration idle, ServerSocketChannel channel) {
            this.loop = loop;
            this.idle = idle;
            this.channel = channel;
        }

        void register() throws IOException {
            loop.register(channel, SelectionKey.OP_ACCEPT, key -> accept());
        }

        Client connect() throws IOException {
            Client client = new Client(((InetSocketAddress) channel.getLocalAddress()).getPort());
            clients.add(client);
            return client;
        }

        private void accept() throws IOException {
            SocketChannel socket = channel.accept();
            if (socket != null) {
                Connection connection = new Connection("c" + ++accepted, socket);
                record("accept:" + connection.name);
                loop.register(socket, SelectionKey.OP_READ, key -> connection.read());
            }
        }

        private final class Connection {
            final String name;
            final SocketChannel socket;
            final ByteBuffer in = ByteBuffer.allocate(1024);
            final Timeout idleTimeout;

            Connection(String name, SocketChannel socket) {
                this.name = name;
                this.socket = socket;
                this.idleTimeout = idle == null
                        ? null
                        : loop.schedule(
                                () -> {
                                    record("idle:" + name);
                                    try {
                                        socket.close();
                                    } catch (IOException e) {
                                        throw new UncheckedIOException(e);
                                    }
                                },
                                idle);
            }

            void read() throws IOException {
                if (socket.read(in) < 0) {
                    socket.close();
                    if (idleTimeout != null) {
                        idleTimeout.cancel();
                    }
                    return;
                }
                if (idleTimeout != null) {
                    idleTimeout.reschedule(idle);
                }
                in.flip();
                for (int i = in.position(); i < in.limit(); i++) {
                    if (in.get(i) == '\n') {
                        byte[] line = new byte[i - in.position()];
                        in.get(line).get();
                        answer(new String(line, US_ASCII));
                    }
                }
                in.compact();
            }

            private void answer(String line) throws IOException {
                record("read:" + name + ":" + line);
                switch (line) {
                    case "boom" -> throw new IOException("boom from " + name);
                    case "crash" -> throw new IllegalStateException("crash from " + name);
                    case "quit" -> record("closed:" + loop.stop());
                    default -> {
                        // A few bytes to loopback: the socket buffer always takes them at once.
                        ByteBuffer out = ByteBuffer.wrap((line + "\n").getBytes(US_ASCII));
                        while (out.hasRemaining()) {
                            socket.write(out);
                        }
                    }
                }
            }
        }
    }

    /** A blocking client; its reads give up after 10 s so that a broken loop fails the test. */
    private static final class Client implements AutoCloseable {
        private final Socket socket;
        private final BufferedReader in;
        private final OutputStream out;

        Client(int port) throws IOException {
            socket = new Socket(InetAddress.getLoopbackAddress(), port);
            socket.setSoTimeout(10_000);
            in = new BufferedReader(new InputStreamReader(socket.getInputStream(), US_ASCII));
            out = socket.getOutputStream();
        }

        void send(String line) throws IOException {
            out.write((line + "\n").getBytes(US_ASCII));
            out.flush();
        }

        /** The next line, or null once the server has closed the connection. */
        String readLine() throws IOException {
            return in.readLine();
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    /** Captures what the loop logs through {@code System.Logger}, which the JDK backs by JUL. */
    private static final class LogCapture extends Handler implements AutoCloseable {
        private final Logger logger = Logger.getLogger("dev.hourglass.loop");
        private final BlockingQueue<LogRecord> records = new LinkedBlockingQueue<>();

        LogCapture() {
            logger.addHandler(this);
        }

        LogRecord next() throws InterruptedException {
            LogRecord record = records.poll(10, SECONDS);
            assertThat(record).as("a logged record").isNotNull();
            assertThat(record.getLevel()).isEqualTo(Level.WARNING);
            return record;
        }

        @Override
        public void publish(LogRecord record) {
            records.add(record);
        }

        @Override
        public void flush() {}

        @Override
        public void close() {
            logger.removeHandler(this);
        }
    }
}
