package dev.hourglass.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.Jedis;

/**
 * A real local Redis Cluster for tests: 3 masters and 3 replicas, each a {@link RedisServerProcess}
 * ({@code --cluster-enabled yes}, a cluster-node-timeout of 1 s so a killed master fails over in
 * seconds, no AOF), joined by {@code redis-cli --cluster create … --cluster-replicas 1}; {@code
 * redis-cli} is taken beside {@code redis-server}, or from the PATH. Ready when every node says
 * {@code cluster_state:ok} and every master has a replica in sync. No server or no redis-cli: the
 * test FAILS with advice; it never skips.
 *
 * <p>Complexity, ordering: not applicable. Thread-safety: not thread-safe; one test thread.
 */
final class RedisClusterProcess implements AutoCloseable {
    private static final Duration READY = Duration.ofSeconds(60);

    private final List<RedisServerProcess> nodes;

    private RedisClusterProcess(List<RedisServerProcess> nodes) {
        this.nodes = nodes;
    }

    /**
     * Starts six servers and makes them a cluster.
     *
     * @return the running cluster, ready
     */
    static RedisClusterProcess start() {
        List<RedisServerProcess> nodes = new ArrayList<>();
        RedisClusterProcess cluster = new RedisClusterProcess(nodes);
        try {
            for (int i = 0; i < 6; i++) {
                nodes.add(RedisServerProcess.start(
                        "everysec",
                        "--appendonly",
                        "no",
                        "--cluster-enabled",
                        "yes",
                        "--cluster-config-file",
                        "nodes.conf",
                        "--cluster-node-timeout",
                        "1000",
                        // the bus port defaults to port + 10000, which may not exist or be taken
                        "--cluster-port",
                        Integer.toString(freePort()),
                        "--repl-diskless-sync-delay",
                        "0"));
            }
            List<String> command = new ArrayList<>(List.of(cli().toString(), "--cluster", "create"));
            nodes.forEach(n -> command.add("127.0.0.1:" + n.port()));
            command.addAll(List.of("--cluster-replicas", "1", "--cluster-yes"));
            Path log = Files.createTempFile("hourglass-cluster-create", ".log");
            Process create = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            if (!create.waitFor(60, TimeUnit.SECONDS) || create.exitValue() != 0) {
                create.destroyForcibly();
                throw new IllegalStateException(
                        "redis-cli --cluster create failed:\n" + Files.readString(log, StandardCharsets.UTF_8));
            }
            Files.delete(log);
            cluster.awaitReady();
            return cluster;
        } catch (IOException e) {
            cluster.close();
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            cluster.close();
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (RuntimeException | Error e) {
            cluster.close();
            throw e;
        }
    }

    /** Returns the six servers. */
    List<RedisServerProcess> nodes() {
        return nodes;
    }

    /** Returns the port of a node that is up, to start RedisTimers nodes from. */
    int anyPort() {
        return nodes.stream()
                .filter(RedisServerProcess::isAlive)
                .findFirst()
                .orElseThrow()
                .port();
    }

    /**
     * Returns the server that is master of a slot, as a live node sees it.
     *
     * @param slot a slot
     * @return its master
     */
    RedisServerProcess masterOf(int slot) {
        for (String line : clusterNodes().split("\n")) {
            String[] f = line.trim().split(" ");
            if (f.length < 9 || !f[2].contains("master") || f[2].contains("fail")) {
                continue;
            }
            for (int i = 8; i < f.length; i++) {
                if (f[i].startsWith("[")) {
                    continue; // a slot being migrated or imported
                }
                String[] range = f[i].split("-");
                int from = Integer.parseInt(range[0]);
                int to = range.length > 1 ? Integer.parseInt(range[1]) : from;
                if (slot >= from && slot <= to) {
                    int port = Integer.parseInt(f[1].substring(f[1].indexOf(':') + 1, f[1].indexOf('@')));
                    return nodes.stream()
                            .filter(n -> n.port() == port)
                            .findFirst()
                            .orElseThrow();
                }
            }
        }
        throw new IllegalStateException("no master serves slot " + slot + ":\n" + clusterNodes());
    }

    /** Returns the ports of the servers that are masters now, as a live node sees it. */
    List<Integer> masterPorts() {
        List<Integer> ports = new ArrayList<>();
        for (String line : clusterNodes().split("\n")) {
            String[] f = line.trim().split(" ");
            if (f.length >= 9 && f[2].contains("master") && !f[2].contains("fail")) {
                ports.add(Integer.parseInt(f[1].substring(f[1].indexOf(':') + 1, f[1].indexOf('@'))));
            }
        }
        return ports;
    }

    /**
     * Waits until every live node says cluster_state:ok and every master has an online replica.
     *
     * @throws IllegalStateException if that takes longer than a minute
     */
    void awaitReady() throws InterruptedException {
        if (!Recorder.eventually(this::ready, READY)) {
            throw new IllegalStateException("the cluster is not ready after " + READY + ":\n" + clusterNodes());
        }
    }

    private boolean ready() {
        try {
            for (RedisServerProcess n : nodes) {
                if (!n.isAlive()) {
                    continue;
                }
                try (Jedis jedis = n.client()) {
                    if (!jedis.clusterInfo().contains("cluster_state:ok")) {
                        return false;
                    }
                    String replication = jedis.info("replication");
                    if (replication.contains("role:master")
                            && !replication.contains("connected_slaves:0")
                            && replication.contains("state=online")) {
                        continue;
                    }
                    if (replication.contains("role:master")) {
                        return false; // a master without a replica in sync
                    }
                    if (!replication.contains("master_link_status:up")) {
                        return false;
                    }
                }
            }
            return masterPorts().size() == 3;
        } catch (RuntimeException e) {
            return false;
        }
    }

    private String clusterNodes() {
        try (Jedis jedis = new Jedis("127.0.0.1", anyPort())) {
            return jedis.clusterNodes();
        }
    }

    @Override
    public void close() {
        for (RedisServerProcess n : nodes) {
            n.close();
        }
    }

    private static Path cli() {
        Path beside = RedisServerProcess.binary().resolveSibling("redis-cli");
        if (Files.isExecutable(beside)) {
            return beside;
        }
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            Path candidate = Path.of(dir, "redis-cli");
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("no redis-cli found beside " + RedisServerProcess.binary() + " or on the"
                + " PATH: install Redis 7.0 or later (Debian/Ubuntu: apt-get install -y redis-server, which"
                + " brings redis-cli)");
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
