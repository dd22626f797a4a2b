package dev.hourglass.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.Jedis;

/**
 * A real Redis-protocol server for tests: {@code redis-server} by default, or another {@link
 * ServerBinary} (Valkey). It runs on a free port of 127.0.0.1 in a temporary directory with AOF on
 * and no RDB snapshots, plus any extra arguments. No server: the test FAILS with a message saying
 * how to get one; it never skips.
 *
 * <p>Other modules' tests use it through this module's test jar.
 *
 * <p>Complexity, ordering: not applicable. Thread-safety: not thread-safe; one test thread.
 */
public final class RedisServerProcess implements AutoCloseable {
    private final Path binary;
    private final Path dir;
    private final int port;
    private final String fsync;
    private final List<String> extra;
    private Process process;

    private RedisServerProcess(Path binary, Path dir, int port, String fsync, List<String> extra) {
        this.binary = binary;
        this.dir = dir;
        this.port = port;
        this.fsync = fsync;
        this.extra = List.copyOf(extra);
    }

    /**
     * Starts a server with {@code appendfsync always}.
     *
     * @return the running server
     */
    public static RedisServerProcess start() {
        return start("always");
    }

    /**
     * Starts a server.
     *
     * @param fsync the appendfsync policy: always, everysec or no
     * @param extra more arguments, e.g. "--maxmemory", "2mb"
     * @return the running server
     */
    public static RedisServerProcess start(String fsync, String... extra) {
        return start(ServerBinary.REDIS, fsync, extra);
    }

    /**
     * Starts a server of the given kind.
     *
     * @param kind which server: Redis or Valkey
     * @param fsync the appendfsync policy: always, everysec or no
     * @param extra more arguments, e.g. "--maxmemory", "2mb"
     * @return the running server
     */
    public static RedisServerProcess start(ServerBinary kind, String fsync, String... extra) {
        try {
            RedisServerProcess server = new RedisServerProcess(
                    kind.path(), Files.createTempDirectory("hourglass-redis"), freePort(), fsync, List.of(extra));
            server.launch();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Returns the server's port on 127.0.0.1.
     *
     * @return the port
     */
    public int port() {
        return port;
    }

    /**
     * Stops (SIGSTOP) or resumes (SIGCONT) the server, as a stall would.
     *
     * @param signal the signal's name without "SIG": STOP or CONT
     */
    public void signal(String signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
                    .inheritIO()
                    .start();
            if (kill.waitFor() != 0) {
                throw new IllegalStateException("kill -" + signal + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Returns whether the process runs (not killed). */
    boolean isAlive() {
        return process != null && process.isAlive();
    }

    /**
     * Returns a new connection to the server.
     *
     * @return the connection, which the caller closes
     */
    public Jedis client() {
        return new Jedis("127.0.0.1", port);
    }

    /** Kills the server with SIGKILL, as a crash would, and waits until it is gone. */
    public void kill() {
        process.destroyForcibly();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException(binary + " did not die within 10 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Starts the server again on the same port and directory, so it replays its AOF. */
    public void restart() {
        try {
            launch();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        if (process != null && process.isAlive()) {
            kill();
        }
        try (var files = Files.walk(dir)) {
            files.sorted((a, b) -> b.getNameCount() - a.getNameCount())
                    .forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a leftover temp directory is harmless
        }
    }

    private void launch() throws IOException {
        List<String> command = new ArrayList<>(List.of(
                binary.toString(),
                "--port",
                Integer.toString(port),
                "--bind",
                "127.0.0.1",
                "--dir",
                dir.toString(),
                "--save",
                "",
                "--appendonly",
                "yes",
                "--appendfsync",
                fsync,
                "--daemonize",
                "no",
                "--protected-mode",
                "no",
                "--logfile",
                dir.resolve("redis.log").toString()));
        command.addAll(extra);
        process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("stdout.log").toFile())
                .start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        RuntimeException last = null;
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(
                        binary + " exited with " + process.exitValue() + " at start; its output:\n" + logs());
            }
            try (Jedis jedis = client()) {
                if ("PONG".equals(jedis.ping())) {
                    return;
                }
            } catch (RuntimeException e) {
                last = e; // still loading the AOF, or not listening yet
            }
            try {
                Thread.sleep(20); // polls a starting process: there is nothing to await
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        process.destroyForcibly();
        throw new IllegalStateException(binary + " did not answer PING within 20 s: " + last + "\n" + logs());
    }

    private String logs() {
        StringBuilder out = new StringBuilder();
        for (String name : List.of("stdout.log", "redis.log")) {
            try {
                out.append(Files.readString(dir.resolve(name), StandardCharsets.UTF_8));
            } catch (IOException e) {
                out.append("(no ").append(name).append(")\n");
            }
        }
        return out.toString();
    }

    static Path binary() {
        return ServerBinary.REDIS.path();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
