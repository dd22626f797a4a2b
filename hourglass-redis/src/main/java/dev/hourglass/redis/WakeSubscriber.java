package dev.hourglass.redis;

import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.util.List;
import redis.clients.jedis.BinaryJedisPubSub;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;

/**
 * Listens on the namespace's wake-up channel, where a schedule publishes {@code "<delay ms> <queue>
 * <shard>"} when its timer becomes the earliest of its shard, and tells the {@link ClaimLoop}, so a
 * node sleeping towards a later timer wakes up for one another node just scheduled. Runs on its own
 * thread with its own connection (a subscribed connection can do nothing else), reconnects with a
 * backoff after a failure and has every shard claimed on after each (re)subscription, because
 * messages published while it was away are lost; the fallback poll bounds the damage of any other
 * lost message. In a Redis Cluster it listens on one node and moves to the next known node after a
 * failure.
 *
 * <p>Complexity: O(1) per message. Ordering: messages are handled in the order Redis sends them.
 * Thread-safety: {@link #start} and {@link #close} may be called from any thread.
 */
final class WakeSubscriber {
    private static final System.Logger LOG = System.getLogger("dev.hourglass.redis");

    private final Servers servers;
    private final JedisClientConfig config;
    private final byte[] channel;
    private final ClaimLoop loop;
    private final long maxBackoffMillis;
    private final Thread thread;
    private final BinaryJedisPubSub pubSub = new BinaryJedisPubSub() {
        @Override
        public void onSubscribe(byte[] channel, int subscribedChannels) {
            loop.resubscribed();
        }

        @Override
        public void onMessage(byte[] channel, byte[] message) {
            String text = new String(message, StandardCharsets.UTF_8);
            int first = text.indexOf(' ');
            int last = text.lastIndexOf(' ');
            try {
                loop.hint(
                        text.substring(first + 1, last),
                        Integer.parseInt(text.substring(last + 1)),
                        Long.parseLong(text.substring(0, first)));
            } catch (RuntimeException e) {
                LOG.log(Level.DEBUG, () -> "ignoring wake-up message '" + text + "': " + e);
            }
        }
    };
    private Jedis connection; // guarded by this
    private boolean closed; // guarded by this

    WakeSubscriber(Servers servers, JedisClientConfig config, byte[] channel, ClaimLoop loop, long maxBackoff) {
        this.servers = servers;
        this.config = config;
        this.channel = channel;
        this.loop = loop;
        this.maxBackoffMillis = maxBackoff;
        this.thread = new Thread(this::run, "hourglass-redis-wake");
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    private void run() {
        int failures = 0;
        while (true) {
            // a cluster forwards every PUBLISH to all its nodes: after a failure, try the next one
            List<HostAndPort> nodes = servers.nodes();
            HostAndPort address = nodes.get(failures % nodes.size());
            try (Jedis jedis = new Jedis(address, config)) { // connects here
                synchronized (this) {
                    if (closed) {
                        return;
                    }
                    connection = jedis;
                }
                jedis.subscribe(pubSub, channel);
                failures = 0;
            } catch (RuntimeException e) {
                synchronized (this) {
                    if (closed) {
                        return;
                    }
                }
                failures++;
                LOG.log(
                        failures == 1 ? Level.WARNING : Level.DEBUG,
                        "wake-up subscription lost (" + failures + " in a row), resubscribing: " + e);
            }
            synchronized (this) {
                if (closed) {
                    return;
                }
                try {
                    wait(Math.min(maxBackoffMillis, 50L << Math.min(failures, 20)));
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    void close() {
        synchronized (this) {
            closed = true;
            notifyAll();
        }
        boolean interrupted = false;
        // Closing the socket ends the subscription; no UNSUBSCRIBE, which Valkey 8.0 answered with a
        // NOSUB error now and then. A subscribe call racing with close may reconnect after a
        // disconnect: repeat until the thread ends.
        while (thread.isAlive()) {
            synchronized (this) {
                if (connection != null) {
                    connection.disconnect();
                }
            }
            try {
                thread.join(50);
            } catch (InterruptedException e) {
                interrupted = true;
                break;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
