package dev.hourglass.redis;

import dev.hourglass.timer.Timer;
import dev.hourglass.timer.Timers;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntToLongFunction;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Configures and starts a {@link RedisTimers} node. Every node of a deployment must use the same
 * namespace, queues and shard count: they are the key layout. Lease, attempts and backoff should
 * agree too (each node applies its own when it claims or retries).
 *
 * <p>Defaults: Redis at 127.0.0.1:6379, namespace "hourglass", a random node id, {@link
 * Durability#fsync()}, lease 30 s (extended every 10 s while a handler runs), handler timeout 1
 * min, 5 attempts, backoff 1 s doubling up to 5 min, batches of 100, 1 shard, fallback poll 1 s,
 * claim linger 10 ms, 4 handler threads (in a pool of 8: the other 4 stand in for handlers that
 * ignore their timeout), up to 256 deliveries in flight, a pool of 16 connections, and a timer thread
 * of its own for the wake-ups and handler timeouts.
 *
 * <p>Complexity: O(1) per setter. Ordering: not applicable. Thread-safety: not thread-safe; use from
 * one thread.
 */
public final class RedisTimersBuilder {
    private static final AtomicInteger HANDLER_THREADS = new AtomicInteger();
    private static final int DEFAULT_MAX_IN_FLIGHT = 256;

    private HostAndPort address = new HostAndPort("127.0.0.1", 6379);
    private JedisClientConfig clientConfig = DefaultJedisClientConfig.builder().build();
    private int poolSize = 16;
    private String namespace = "hourglass";
    private String nodeId = UUID.randomUUID().toString().substring(0, 8);
    private final Map<String, Boolean> queues = new LinkedHashMap<>();
    private Duration lease = Duration.ofSeconds(30);
    private int maxAttempts = 5;
    private Duration backoffInitial = Duration.ofSeconds(1);
    private Duration backoffMax = Duration.ofMinutes(5);
    private int batchSize = 100;
    private int shards = 1;
    private Duration fallbackPoll = Duration.ofSeconds(1);
    private Duration claimLinger = Duration.ofMillis(10);
    private int maxInFlight; // 0: the default, see maxInFlight
    private int handlerThreads = 4;
    private Executor handlerExecutor;
    private Timer timer;
    private Durability durability = Durability.fsync();
    private Duration handlerTimeout = Duration.ofMinutes(1);

    RedisTimersBuilder() {}

    /**
     * Sets the Redis server (the node makes its own pool and its own pub/sub connection), or any
     * node of a Redis Cluster: when the server says {@code cluster_enabled:1}, {@link #build()}
     * discovers the cluster from it and routes each shard to the master of its slot.
     *
     * @param host the host name or address, not null
     * @param port the port, 1 to 65535
     * @return this builder
     * @throws NullPointerException if {@code host} is null
     * @throws IllegalArgumentException if the port is out of range
     */
    public RedisTimersBuilder redis(String host, int port) {
        Objects.requireNonNull(host, "host");
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port must be in 1..65535: " + port);
        }
        this.address = new HostAndPort(host, port);
        return this;
    }

    /**
     * Sets how to connect: timeouts, password, TLS, database, client name.
     *
     * @param clientConfig the Jedis client configuration, not null
     * @return this builder
     * @throws NullPointerException if {@code clientConfig} is null
     */
    public RedisTimersBuilder clientConfig(JedisClientConfig clientConfig) {
        this.clientConfig = Objects.requireNonNull(clientConfig, "clientConfig");
        return this;
    }

    /**
     * Sets the most connections the node's pool opens (the claim loop takes one, each calling
     * thread one at a time); in a Redis Cluster, the most per node.
     *
     * @param poolSize at least 1
     * @return this builder
     * @throws IllegalArgumentException if {@code poolSize} is less than 1
     */
    public RedisTimersBuilder poolSize(int poolSize) {
        this.poolSize = atLeast1("poolSize", poolSize);
        return this;
    }

    /**
     * Sets the prefix of every key and of the wake-up channel, which separates deployments sharing
     * one Redis.
     *
     * @param namespace not null or empty, without braces
     * @return this builder
     * @throws NullPointerException if {@code namespace} is null
     * @throws IllegalArgumentException if it is empty or contains a brace
     */
    public RedisTimersBuilder namespace(String namespace) {
        this.namespace = name("namespace", namespace);
        return this;
    }

    /**
     * Sets the node's id, shown as the owner of the timers it holds and in its log lines and thread
     * names.
     *
     * @param nodeId neither null, nor empty, nor {@code "-"} (which marks a timer no node holds)
     * @return this builder
     * @throws NullPointerException if {@code nodeId} is null
     * @throws IllegalArgumentException if it is empty or {@code "-"}
     */
    public RedisTimersBuilder nodeId(String nodeId) {
        Objects.requireNonNull(nodeId, "nodeId");
        if (nodeId.isEmpty() || nodeId.equals(Script.NO_OWNER)) {
            throw new IllegalArgumentException(
                    "nodeId must not be empty or \"" + Script.NO_OWNER + "\": '" + nodeId + "'");
        }
        this.nodeId = nodeId;
        return this;
    }

    /**
     * Declares queues. Only declared queues can be scheduled on or handled; anything else is refused
     * as unknown, so a typo cannot park timers where no node will ever look.
     *
     * @param names the queues' names, not null or empty, without braces or colons (a colon would let
     *     namespace "a:b" with queue "c" share the keys of namespace "a" with queue "b:c")
     * @return this builder
     * @throws NullPointerException if a name is null
     * @throws IllegalArgumentException if a name is empty or contains a brace or a colon
     */
    public RedisTimersBuilder queues(String... names) {
        Objects.requireNonNull(names, "names");
        for (String n : names) {
            if (name("queue", n).indexOf(':') >= 0) {
                throw new IllegalArgumentException("queue must not contain a colon: '" + n + "'");
            }
            queues.put(n, Boolean.TRUE);
        }
        return this;
    }

    /**
     * Sets how long a claim holds a timer before others may claim it again, unless the claiming
     * node extends it: a node extends the lease of each running delivery every third of the lease.
     * Short enough that a crashed node's timers come back soon; long enough to ride out a pause of
     * the node (GC, network) of a third of it.
     *
     * @param lease positive, at most one day
     * @return this builder
     * @throws NullPointerException if {@code lease} is null
     * @throws IllegalArgumentException if it is not positive or longer than a day
     */
    public RedisTimersBuilder leaseDuration(Duration lease) {
        this.lease = positive("leaseDuration", lease);
        return this;
    }

    /**
     * Sets how many deliveries a timer gets before it is parked in the dead letters. A delivery
     * whose lease runs out counts as a failed one.
     *
     * @param maxAttempts at least 1
     * @return this builder
     * @throws IllegalArgumentException if it is less than 1
     */
    public RedisTimersBuilder maxAttempts(int maxAttempts) {
        this.maxAttempts = atLeast1("maxAttempts", maxAttempts);
        return this;
    }

    /**
     * Sets the retry backoff after a failed delivery: {@code initial} after the first failure,
     * doubling after each further one, never more than {@code max}.
     *
     * @param initial not negative, at most one day
     * @param max at least {@code initial}, at most one day
     * @return this builder
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if an argument is out of range
     */
    public RedisTimersBuilder backoff(Duration initial, Duration max) {
        Objects.requireNonNull(initial, "initial");
        Objects.requireNonNull(max, "max");
        if (initial.isNegative() || initial.compareTo(Duration.ofDays(1)) > 0) {
            throw new IllegalArgumentException("initial backoff must be in 0..1 day: " + initial);
        }
        if (max.compareTo(initial) < 0 || max.compareTo(Duration.ofDays(1)) > 0) {
            throw new IllegalArgumentException("max backoff must be in initial (" + initial + ")..1 day: " + max);
        }
        this.backoffInitial = initial;
        this.backoffMax = max;
        return this;
    }

    /**
     * Sets the most timers one claim script takes from one shard.
     *
     * @param batchSize at least 1
     * @return this builder
     * @throws IllegalArgumentException if it is less than 1
     */
    public RedisTimersBuilder batchSize(int batchSize) {
        this.batchSize = atLeast1("batchSize", batchSize);
        return this;
    }

    /**
     * Sets how many shards each queue is split into; each shard has its own hash tag, so a Redis
     * Cluster spreads them over its nodes. Part of the key layout: all nodes must agree, and changing
     * it strands the timers of the shards that disappear.
     *
     * @param shards 1 to 1024
     * @return this builder
     * @throws IllegalArgumentException if out of range
     */
    public RedisTimersBuilder shards(int shards) {
        if (shards < 1 || shards > 1024) {
            throw new IllegalArgumentException("shards must be in 1..1024: " + shards);
        }
        this.shards = shards;
        return this;
    }

    /**
     * Sets the longest a node sleeps without looking at Redis, in case a wake-up message was lost.
     *
     * @param fallbackPoll positive, at most one day
     * @return this builder
     * @throws NullPointerException if {@code fallbackPoll} is null
     * @throws IllegalArgumentException if not positive or longer than a day
     */
    public RedisTimersBuilder fallbackPoll(Duration fallbackPoll) {
        this.fallbackPoll = positive("fallbackPoll", fallbackPoll);
        return this;
    }

    /**
     * Sets how long past a timer's due time a node waits before it claims it, so that the timers
     * due meanwhile come in the same claim: at a steady rate, fewer claim scripts per timer for up
     * to that much more lateness. Timers due when they are scheduled, retries after their backoff
     * and a shard with more due than one claim took are claimed without it; a node never waits
     * longer than its fallback poll after a claim on a shard. Zero claims at the due time.
     *
     * @param claimLinger zero to one second
     * @return this builder
     * @throws NullPointerException if {@code claimLinger} is null
     * @throws IllegalArgumentException if negative or longer than a second
     */
    public RedisTimersBuilder claimLinger(Duration claimLinger) {
        Objects.requireNonNull(claimLinger, "claimLinger");
        if (claimLinger.isNegative() || claimLinger.compareTo(Duration.ofSeconds(1)) > 0) {
            throw new IllegalArgumentException("claimLinger must be in 0..1 s: " + claimLinger);
        }
        this.claimLinger = claimLinger;
        return this;
    }

    /**
     * Sets the most deliveries the node holds at once (claimed and not yet ended); a claim takes at
     * most the free slots, so more slots mean larger claims. Deliveries beyond the handler threads
     * wait in the executor's queue; one that still waits when the handler timeout has passed since
     * its claim fails (as a hung handler's would). With the node's own pool, the node takes no more
     * than its threads get through in a quarter of the handler timeout at the handlers' mean
     * duration, so slow handlers do not make timers wait into their timeout; with a {@link
     * #handlerExecutor}, keep {@code maxInFlight / threads * slowest handler} below the handler
     * timeout. Default: 256.
     *
     * @param maxInFlight at least 1
     * @return this builder
     * @throws IllegalArgumentException if it is less than 1
     */
    public RedisTimersBuilder maxInFlight(int maxInFlight) {
        this.maxInFlight = atLeast1("maxInFlight", maxInFlight);
        return this;
    }

    /**
     * Sets the number of threads of the node's own handler pool (unused with {@link
     * #handlerExecutor}).
     *
     * @param threads at least 1
     * @return this builder
     * @throws IllegalArgumentException if it is less than 1
     */
    public RedisTimersBuilder handlerThreads(int threads) {
        this.handlerThreads = atLeast1("handlerThreads", threads);
        return this;
    }

    /**
     * Runs handlers on the given executor instead of a pool of the node's own; the node does not
     * shut it down. A handler that ignores its timeout's interrupt keeps its thread: give the
     * executor spare threads, since the node does not know how many it has.
     *
     * @param executor not null
     * @return this builder
     * @throws NullPointerException if {@code executor} is null
     */
    public RedisTimersBuilder handlerExecutor(Executor executor) {
        this.handlerExecutor = Objects.requireNonNull(executor, "executor");
        return this;
    }

    /**
     * Arms the node's wake-ups on the given Hourglass timer instead of a timer thread of its own;
     * the node does not close it. Its clock must flow with real time (the node sleeps towards Redis
     * server times).
     *
     * @param timer not null
     * @return this builder
     * @throws NullPointerException if {@code timer} is null
     */
    public RedisTimersBuilder timer(Timer timer) {
        this.timer = Objects.requireNonNull(timer, "timer");
        return this;
    }

    /**
     * Sets how long a handler may run, from its start. Past it the handler's thread is interrupted
     * and the attempt counts as failed: the timer is retried after the backoff, or dead-lettered after
     * its last attempt, and whatever the handler returns later is ignored. A delivery that waits this
     * long for a thread (behind hung handlers) fails the same way. While a handler runs within its
     * timeout, its lease is extended (every third of the lease), so a handler may take longer than
     * the lease.
     *
     * @param handlerTimeout positive, at most one day; default one minute
     * @return this builder
     * @throws NullPointerException if {@code handlerTimeout} is null
     * @throws IllegalArgumentException if not positive or longer than a day
     */
    public RedisTimersBuilder handlerTimeout(Duration handlerTimeout) {
        this.handlerTimeout = positive("handlerTimeout", handlerTimeout);
        return this;
    }

    /**
     * Sets what an acknowledged change survives (see {@link Durability}); the default is {@link
     * Durability#fsync()}. {@link #build()} refuses a server that cannot keep it.
     *
     * @param durability the promise, not null
     * @return this builder
     * @throws NullPointerException if {@code durability} is null
     */
    public RedisTimersBuilder durability(Durability durability) {
        this.durability = Objects.requireNonNull(durability, "durability");
        return this;
    }

    /**
     * Checks the Redis server, loads the scripts, then starts the node: its claim loop and its
     * wake-up subscription. Redis must be up: the check needs it. Once started, a node survives
     * Redis restarts and outages (it retries until Redis is back).
     *
     * @return the running node
     * @throws IllegalStateException if no queue was declared
     * @throws IllegalArgumentException if a {@link Durability#replicas} timeout is not below the
     *     client's socket timeout
     * @throws RedisTimersException if Redis is unreachable or cannot keep the durability (the
     *     message names the setting to change), or its eviction policy may drop timers
     */
    public RedisTimers build() {
        if (queues.isEmpty()) {
            throw new IllegalStateException("declare at least one queue with queues(...)");
        }
        JedisClientConfig config = new NoSetInfoClientConfig(clientConfig);
        int socketTimeout = config.getSocketTimeoutMillis();
        if (socketTimeout > 0
                && durability.kind() == Durability.Kind.REPLICAS
                && durability.timeoutMillis() >= socketTimeout) {
            throw new IllegalArgumentException("the wait of " + durability + " must be shorter than the client's"
                    + " socket timeout (" + socketTimeout + " ms), or the client gives up first");
        }
        Servers servers = connect(config);
        WriteWait wait;
        try {
            wait = check(servers);
            ServerCheck.layout(servers, wait, namespace, queues.keySet(), shards);
        } catch (RuntimeException e) {
            servers.close();
            throw e;
        }
        boolean ownsTimer = timer == null;
        Timer wakeTimer = ownsTimer ? Timers.builder().startTimerThread() : timer;
        Executor executor = handlerExecutor;
        ExecutorService ownedExecutor = null;
        int threads = 0; // unknown: a caller's executor
        if (executor == null) {
            // as many threads again for handlers that ignore their timeout's interrupt: a hung
            // handler leaves a thread behind, not a hole in the node's capacity
            threads = 2 * handlerThreads;
            ownedExecutor = Executors.newFixedThreadPool(threads, task -> {
                Thread t = new Thread(task, "hourglass-redis-handler-" + HANDLER_THREADS.incrementAndGet());
                t.setDaemon(true);
                return t;
            });
            executor = ownedExecutor;
        }
        byte[] channel = RedisTimers.channel(namespace);
        ClaimLoop loop = new ClaimLoop(
                servers,
                wakeTimer,
                new ClaimLoop.HandlerSettings(executor, threads, handlerTimeout.toMillis(), backoffMillis()),
                nodeId,
                channel,
                loopSettings());
        WakeSubscriber subscriber = new WakeSubscriber(servers, config, channel, loop, fallbackPoll.toMillis());
        Map<String, ShardKeys[]> layout = new LinkedHashMap<>();
        for (String q : queues.keySet()) {
            layout.put(q, ShardKeys.of(namespace, q, shards));
        }
        RedisTimers node = new RedisTimers(
                servers,
                namespace,
                nodeId,
                layout,
                loop,
                subscriber,
                ownsTimer ? wakeTimer : null,
                ownedExecutor,
                handlerTimeout.toMillis(),
                wait);
        loop.start();
        subscriber.start();
        return node;
    }

    /** The claim loop's settings as set so far, defaults filled in. */
    LoopSettings loopSettings() {
        return new LoopSettings(
                batchSize,
                lease.toMillis(),
                maxAttempts,
                fallbackPoll.toMillis(),
                maxInFlight > 0 ? maxInFlight : DEFAULT_MAX_IN_FLIGHT,
                claimLinger.toMillis());
    }

    /** The wait before a retry after the given attempt failed: doubling from the first, capped. */
    IntToLongFunction backoffMillis() {
        long initial = backoffInitial.toMillis();
        long max = backoffMax.toMillis();
        return attempt -> {
            int doublings = Math.min(Math.max(attempt - 1, 0), 40);
            long b = initial << doublings;
            return b < 0 || (doublings > 0 && b >> doublings != initial) ? max : Math.min(b, max);
        };
    }

    /** Asks the server whether it is a Redis Cluster node, and connects accordingly. */
    private Servers connect(JedisClientConfig config) {
        try {
            boolean cluster;
            try (Jedis seed = new Jedis(address, config)) {
                cluster = seed.info("cluster").contains("cluster_enabled:1");
            }
            return cluster
                    ? new ClusterServers(address, config, poolSize)
                    : new StandaloneServers(address, config, poolSize);
        } catch (JedisException e) {
            throw new RedisTimersException("cannot start a node on Redis at " + address, e);
        }
    }

    /** Checks every master; they must agree on how writes wait. */
    private WriteWait check(Servers servers) {
        List<HostAndPort> masters;
        try {
            masters = servers.masters();
        } catch (JedisException e) {
            throw new RedisTimersException("cannot start a node on the Redis Cluster of " + address, e);
        }
        WriteWait wait = null;
        for (HostAndPort master : masters) {
            WriteWait w;
            try (Jedis jedis = servers.connection(master)) {
                w = ServerCheck.check(jedis, durability, master.toString());
            } catch (JedisException e) {
                throw new RedisTimersException("cannot start a node on Redis at " + master, e);
            }
            if (wait != null && wait.waitAof() != w.waitAof()) {
                throw new RedisTimersException("the masters of the Redis Cluster of " + address + " run Redis"
                        + " versions before and after 7.2, which wait differently for " + durability
                        + "; upgrade them all");
            }
            wait = w;
        }
        return wait;
    }

    private static String name(String what, String value) {
        Objects.requireNonNull(value, what);
        if (value.isEmpty() || value.indexOf('{') >= 0 || value.indexOf('}') >= 0) {
            throw new IllegalArgumentException(what + " must be non-empty and without braces: '" + value + "'");
        }
        return TimerRequest.checkUtf16(what, value);
    }

    private static int atLeast1(String what, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(what + " must be at least 1: " + value);
        }
        return value;
    }

    private static Duration positive(String what, Duration value) {
        Objects.requireNonNull(value, what);
        if (value.toMillis() < 1 || value.compareTo(Duration.ofDays(1)) > 0) {
            throw new IllegalArgumentException(what + " must be in 1 ms..1 day: " + value);
        }
        return value;
    }
}
