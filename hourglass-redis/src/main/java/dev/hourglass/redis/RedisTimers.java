package dev.hourglass.redis;

import dev.hourglass.timer.Timer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisException;

/**
 * A node of a fleet sharing durable timers in Redis: timers survive restarts of the nodes (and of
 * Redis, as far as the node's {@link Durability} promises), and each due timer is delivered to one
 * node at a time. Needs Redis 7.0 or later, standalone or a Redis Cluster (each shard's keys share a
 * slot, and its scripts and transactions go to the master of that slot); {@link RedisTimersBuilder#build()} checks
 * the server, or every master, first.
 *
 * <pre>{@code
 * RedisTimers node = RedisTimers.builder().redis("127.0.0.1", 6379).queues("orders").build();
 * node.register("orders", d -> cancelUnpaid(d.id(), d.attempt()));
 * node.schedule("orders", "order-42", Duration.ofMinutes(30), "cancel".getBytes(UTF_8));
 * node.schedule("orders", "order-42", Duration.ofMinutes(45), "cancel".getBytes(UTF_8)); // reschedule
 * node.cancel("orders", "order-42");
 * }</pre>
 *
 * <p><b>Guarantees.</b> Scheduling is idempotent by id: scheduling an id again replaces its due
 * time and payload and resets its attempts. A due timer is claimed atomically (a Lua script) by one
 * node under a lease; the node runs the handler and acknowledges, which deletes the timer. When no
 * node fails, each timer is therefore delivered exactly once. Delivery is at least once: a node that
 * crashes or is cut off from Redis lets the lease run out, a handler that runs past its {@linkplain
 * RedisTimersBuilder#handlerTimeout timeout} counts as failed, and the timer is delivered again with
 * a higher {@link Delivery#attempt()}; use the id and attempt (or {@link Delivery#fencingToken()}) as
 * the handler's idempotency key. A failing handler is retried after an exponential backoff; after
 * {@code maxAttempts} deliveries (an expired lease or a timeout counts as one) the timer is parked in
 * the dead letters, where {@link #deadLetters}, {@link #lookup}, {@link #requeue}, {@link #cancel}
 * and {@link #purgeDeadLetters} reach it.
 *
 * <p><b>Durability.</b> A schedule, cancel, requeue or purge that returns has reached the node's
 * {@link Durability} (default {@link Durability#fsync()}); one that throws {@link
 * RedisTimersException} was not acknowledged. A schedule that Redis cannot store (over {@code
 * maxmemory}) is refused with OOM before anything is written.
 *
 * <p><b>Rescheduling or cancelling a claimed timer.</b> The new schedule (or the cancellation)
 * wins: it takes the timer out of the leases and gives it another token (0 until its next claim,
 * which takes a new one), and the in-flight delivery's acknowledgement or failure, which carries
 * the old token, is ignored. The handler of that delivery still runs to its
 * end.
 *
 * <p><b>Handlers longer than the lease</b> keep it: the node extends the lease of each running
 * delivery every third of the lease (a heartbeat) until the handler returns or its timeout passes. A
 * delivery whose lease was lost anyway (Redis unreachable for longer than the lease) is fenced: its
 * outcome carries an old token and is ignored.
 *
 * <p><b>Clock.</b> Due times and leases are Redis server time, read inside the scripts, so nodes with
 * skewed clocks agree; a delay is measured on Redis's clock from when the schedule runs. Times are
 * whole milliseconds, rounded up (never early).
 *
 * <p><b>Wake-ups.</b> A node sleeps on a local Hourglass {@link Timer} until the earliest due time
 * or lease expiry it knows of, learns of earlier timers scheduled by other nodes through Redis
 * pub/sub, and, in case a message was lost, looks at each shard again at most a fallback poll
 * period after its last claim on it (while it has free handler slots and Redis answers) and at
 * every (re)subscription to the channel. A pass claims only the shards whose earliest time has come.
 * An idle node makes one pipelined round trip per fallback period.
 *
 * <p><b>Redis down.</b> {@link #schedule}, {@link #cancel} and the other calls throw {@link
 * RedisTimersException}: the change was not acknowledged, and since every call is idempotent the
 * caller may repeat it. The node's claim loop and subscription retry with backoff and carry on when
 * Redis is back; nothing acknowledged is lost, within the node's {@link Durability}.
 *
 * <p>The client is Jedis, not Lettuce: the node's Redis traffic is a few round trips per pass from
 * one loop thread plus blocking calls from callers, which a small blocking pool serves simply and
 * which keeps the module free of Netty and reactive types. The node needs its own pub/sub connection
 * and a pool sized for its threads, so it is given an address, not a pool.
 *
 * <p>Complexity: each call is one round trip running an O(log n) script or transaction on one
 * shard, and one more after a schedule by due time whose timer is now its shard's earliest (the
 * wake-up) ({@link #scheduleAll} pipelines; {@link #deadLetters} and {@link #purgeDeadLetters}
 * visit every shard).
 * Ordering: within a shard timers are claimed in due-time order; deliveries run concurrently on the
 * handler executor. Thread-safety: every method may be called from any thread, including handlers.
 */
public final class RedisTimers implements AutoCloseable {
    private static final int PIPELINE_CHUNK = 1_000;

    private final Servers servers;
    private final String namespace;
    private final String nodeId;
    private final Map<String, ShardKeys[]> layout;
    private final ClaimLoop loop;
    private final WakeSubscriber subscriber;
    private final Timer ownedTimer;
    private final ExecutorService ownedExecutor;
    private final long drainMillis;
    private final WriteWait wait;
    private boolean closing; // guarded by this
    private volatile boolean closed;

    RedisTimers(
            Servers servers,
            String namespace,
            String nodeId,
            Map<String, ShardKeys[]> layout,
            ClaimLoop loop,
            WakeSubscriber subscriber,
            Timer ownedTimer,
            ExecutorService ownedExecutor,
            long drainMillis,
            WriteWait wait) {
        this.servers = servers;
        this.namespace = namespace;
        this.nodeId = nodeId;
        this.layout = Map.copyOf(layout);
        this.loop = loop;
        this.subscriber = subscriber;
        this.ownedTimer = ownedTimer;
        this.ownedExecutor = ownedExecutor;
        this.drainMillis = drainMillis;
        this.wait = wait;
    }

    /**
     * Returns a builder of a node.
     *
     * @return a builder with the defaults it documents
     */
    public static RedisTimersBuilder builder() {
        return new RedisTimersBuilder();
    }

    /**
     * Returns this node's id.
     *
     * @return the id given to the builder, or the random one it chose
     */
    public String nodeId() {
        return nodeId;
    }

    /**
     * Schedules (or reschedules) a timer due at an instant; see {@link TimerRequest#at}.
     *
     * @param queue a declared queue
     * @param id the timer's id, not null or empty
     * @param dueTime when it is due
     * @param payload what the handler receives, not null
     * @return the due time as stored
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if the queue is unknown, the id empty or not valid UTF-16, or the instant out of
     *     range
     * @throws RedisTimersException if Redis failed: the schedule was not acknowledged
     * @throws IllegalStateException if the node is closed
     */
    public Instant schedule(String queue, String id, Instant dueTime, byte[] payload) {
        ShardKeys[] shards = shards(queue);
        return scheduleOne(queue, shards, TimerRequest.at(id, dueTime, payload));
    }

    /**
     * Schedules (or reschedules) a timer due after a delay on Redis's clock; see {@link
     * TimerRequest#after}.
     *
     * @param queue a declared queue
     * @param id the timer's id, not null or empty
     * @param delay how long until it is due, not negative
     * @param payload what the handler receives, not null
     * @return the due time as stored, by Redis's clock
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if the queue is unknown, the id empty or not valid UTF-16, or the delay negative
     *     or too long
     * @throws RedisTimersException if Redis failed: the schedule was not acknowledged
     * @throws IllegalStateException if the node is closed
     */
    public Instant schedule(String queue, String id, Duration delay, byte[] payload) {
        ShardKeys[] shards = shards(queue);
        return scheduleOne(queue, shards, TimerRequest.after(id, delay, payload));
    }

    /**
     * Starts a recurring timer (a series): its occurrences are delivered like one-shot timers, each
     * to one node at a time, at least once, with the attempt and fencing rules of one-shot timers;
     * {@link Delivery#occurrence()} numbers them. When an occurrence ends (acknowledged, failed its
     * last attempt, or missed and skipped) the node holding it creates the next one, in the same
     * atomic script that ends it and only under the occurrence's token and number, so each occurrence
     * exists once however many nodes run. Occurrences of one series never overlap. A failed
     * occurrence is dropped (logged) and the series goes on; {@link #cancel} stops the series.
     *
     * <p>Idempotent: if the id already holds a series with the same recurrence and payload, it is
     * kept as it is (every node may declare its series at start); anything else the id held, a
     * one-shot timer or another series, is replaced. Scheduling a one-shot timer with the id replaces
     * the series.
     *
     * @param queue a declared queue
     * @param id the series' id, not null or empty
     * @param recurrence how it repeats
     * @param payload what every occurrence's handler receives, not null
     * @return the slot of the series' current occurrence (the first, unless an existing series was
     *     kept)
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if the queue is unknown or the id empty or not valid UTF-16
     * @throws RedisTimersException if Redis failed: the schedule was not acknowledged
     * @throws IllegalStateException if the node is closed
     */
    public Instant scheduleRecurring(String queue, String id, Recurrence recurrence, byte[] payload) {
        ShardKeys shard = shard(queue, id);
        Objects.requireNonNull(recurrence, "recurrence");
        Objects.requireNonNull(payload, "payload");
        Object reply = withRedis(
                () -> "recurring schedule of '" + id + "' on queue '" + queue + "' was not acknowledged (it may or"
                        + " may not be stored; scheduling it again is safe)",
                () -> {
                    String mode = "in";
                    long ms = recurrence.periodMillis();
                    if (recurrence.kind() == Recurrence.Kind.CRON) {
                        // the first slot after now by the clock of the shard's master
                        List<String> time = servers.on(shard.keys().get(0), jedis -> jedis.time());
                        long now = Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
                        Long first = recurrence.cronNext(now);
                        if (first == null) {
                            throw new IllegalArgumentException("recurrence has no slot after now: " + recurrence);
                        }
                        mode = "at";
                        ms = first;
                    }
                    return write(new ScriptRunner.Call(
                            Script.SCHEDULE_RECURRING,
                            shard.keys(),
                            List.of(
                                    ShardKeys.bytes(id),
                                    payload,
                                    ShardKeys.bytes(mode),
                                    ShardKeys.bytes(Long.toString(ms)),
                                    ShardKeys.bytes(recurrence.encode()),
                                    channel(namespace),
                                    shard.wakeTopic())));
                });
        return Instant.ofEpochMilli((Long) ((List<?>) reply).get(1));
    }

    /**
     * Schedules (or reschedules) many timers: one call per shard per 200 timers (a MULTI/EXEC of
     * plain commands when they all have a due time, a script when any has a delay), pipelined about
     * 1,000 timers at a time, each pipeline followed by one durability wait. When the same id occurs
     * twice, the later request wins. Only when this returns are all acknowledged.
     *
     * @param queue a declared queue
     * @param requests the timers, none null
     * @throws NullPointerException if an argument or a request is null
     * @throws IllegalArgumentException if the queue is unknown
     * @throws RedisTimersException if Redis failed: some, all or none were stored; scheduling them
     *     all again is safe
     * @throws IllegalStateException if the node is closed
     */
    public void scheduleAll(String queue, Collection<TimerRequest> requests) {
        ShardKeys[] shards = shards(queue);
        Objects.requireNonNull(requests, "requests");
        List<TimerRequest> all = new ArrayList<>(requests.size());
        for (TimerRequest r : requests) {
            all.add(Objects.requireNonNull(r, "request"));
        }
        withRedis(
                () -> requests.size() + " schedules on queue '" + queue + "' were not all acknowledged (scheduling"
                        + " them again is safe)",
                () -> {
                    ScheduleCalls.runAll(servers, wait, shards, channel(namespace), all);
                    return null;
                });
        loop.counters().scheduled(all.size());
    }

    /**
     * Cancels a timer, whether scheduled, claimed (the running delivery's outcome is then ignored)
     * or dead.
     *
     * @param queue a declared queue
     * @param id the timer's id
     * @return true if it existed
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if the queue is unknown or the id empty or not valid UTF-16
     * @throws RedisTimersException if Redis failed: the cancellation was not acknowledged
     * @throws IllegalStateException if the node is closed
     */
    public boolean cancel(String queue, String id) {
        ShardKeys shard = shard(queue, id);
        Object reply = withRedis(
                () -> "cancel of '" + id + "' on queue '" + queue + "' was not acknowledged (cancelling again is safe)",
                () -> write(call(Script.CANCEL, shard, id)));
        return (Long) reply > 0;
    }

    /**
     * Reads a timer atomically.
     *
     * @param queue a declared queue
     * @param id the timer's id
     * @return its snapshot, or empty if there is no such timer (never scheduled, fired and
     *     acknowledged, or cancelled)
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if the queue is unknown or the id empty or not valid UTF-16
     * @throws RedisTimersException if Redis failed
     * @throws IllegalStateException if the node is closed
     */
    public Optional<TimerSnapshot> lookup(String queue, String id) {
        ShardKeys shard = shard(queue, id);
        Object reply = withRedis(
                () -> "lookup of '" + id + "' on queue '" + queue + "' failed",
                () -> ScriptRunner.run(servers, call(Script.LOOKUP, shard, id)));
        return Optional.ofNullable(snapshot(queue, id, reply));
    }

    /**
     * Registers the handler of a queue: this node starts claiming its due timers.
     *
     * @param queue a declared queue
     * @param handler its handler, not null
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if the queue is unknown
     * @throws IllegalStateException if the queue already has a handler on this node, or the node is
     *     closed
     */
    public void register(String queue, TimerHandler handler) {
        ShardKeys[] shards = shards(queue);
        Objects.requireNonNull(handler, "handler");
        checkOpen();
        if (!loop.register(queue, shards, handler)) {
            throw new IllegalStateException("queue '" + queue + "' already has a handler on node " + nodeId);
        }
    }

    /**
     * Lists dead timers: up to {@code limit}, oldest death first within each shard, shard by shard;
     * the same as {@code list(queue, TimerState.DEAD, limit)}.
     *
     * @param queue a declared queue
     * @param limit the most to return, at least 1
     * @return their snapshots
     * @throws NullPointerException if {@code queue} is null
     * @throws IllegalArgumentException if the queue is unknown or the limit less than 1
     * @throws RedisTimersException if Redis failed
     * @throws IllegalStateException if the node is closed
     */
    public List<TimerSnapshot> deadLetters(String queue, int limit) {
        return list(queue, TimerState.DEAD, limit);
    }

    /**
     * Lists the timers in a state, shard by shard, and within a shard by due time (scheduled), lease
     * expiry (claimed) or time of death (dead); each snapshot is read atomically, and one whose
     * state changed meanwhile is left out.
     *
     * @param queue a declared queue
     * @param state which timers
     * @param limit the most to return, at least 1
     * @return their snapshots
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if the queue is unknown or the limit less than 1
     * @throws RedisTimersException if Redis failed
     * @throws IllegalStateException if the node is closed
     */
    public List<TimerSnapshot> list(String queue, TimerState state, int limit) {
        ShardKeys[] shards = shards(queue);
        Objects.requireNonNull(state, "state");
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1: " + limit);
        }
        return withRedis(() -> "listing the " + state + " timers of queue '" + queue + "' failed", () -> {
            List<TimerSnapshot> out = new ArrayList<>();
            for (ShardKeys shard : shards) {
                long last = limit - out.size() - 1;
                for (byte[] rawId : servers.on(shard.stateKey(state), j -> j.zrange(shard.stateKey(state), 0, last))) {
                    String id = new String(rawId, StandardCharsets.UTF_8);
                    TimerSnapshot s = snapshot(queue, id, ScriptRunner.run(servers, call(Script.LOOKUP, shard, id)));
                    if (s != null && s.state() == state) {
                        out.add(s);
                    }
                }
                if (out.size() >= limit) {
                    break;
                }
            }
            return out;
        });
    }

    /**
     * Counts a queue's timers by state (one pipelined round trip over its shards; the counts of
     * different shards are read one after the other, not atomically together).
     *
     * @param queue a declared queue
     * @return the count of every state
     * @throws NullPointerException if {@code queue} is null
     * @throws IllegalArgumentException if the queue is unknown
     * @throws RedisTimersException if Redis failed
     * @throws IllegalStateException if the node is closed
     */
    public Map<TimerState, Long> stats(String queue) {
        ShardKeys[] shards = shards(queue);
        return withRedis(() -> "counting the timers of queue '" + queue + "' failed", () -> {
            Map<TimerState, Long> out = new EnumMap<>(TimerState.class);
            for (TimerState state : TimerState.values()) {
                out.put(state, 0L);
            }
            // one pipeline per master (one in all when standalone)
            for (List<ShardKeys> owned : servers.byOwner(List.of(shards), s -> s.stateKey(TimerState.SCHEDULED))
                    .values()) {
                servers.on(owned.get(0).stateKey(TimerState.SCHEDULED), jedis -> {
                    Map<TimerState, List<Response<Long>>> counts = new EnumMap<>(TimerState.class);
                    try (Pipeline p = jedis.pipelined()) {
                        for (TimerState state : TimerState.values()) {
                            List<Response<Long>> perShard = new ArrayList<>();
                            for (ShardKeys shard : owned) {
                                perShard.add(p.zcard(shard.stateKey(state)));
                            }
                            counts.put(state, perShard);
                        }
                        p.sync();
                    }
                    // read here, so that a redirection (MOVED) refreshes the slot map
                    counts.forEach((state, rs) -> out.merge(
                            state, rs.stream().mapToLong(Response::get).sum(), Long::sum));
                    return null;
                });
            }
            return out;
        });
    }

    /**
     * Returns what this node did since it started, from its own memory (no Redis call): schedules
     * acknowledged, deliveries, retries, dead letters, deliveries running and lag.
     *
     * @return a snapshot, not updated afterwards
     */
    public RedisNodeStats nodeStats() {
        return loop.counters().snapshot(loop.inFlight());
    }

    /**
     * Makes a dead timer due now again, with its payload and no attempts.
     *
     * @param queue a declared queue
     * @param id the timer's id
     * @return true if it was dead and is now scheduled; false if it was not dead
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if the queue is unknown or the id empty or not valid UTF-16
     * @throws RedisTimersException if Redis failed: the requeue was not acknowledged
     * @throws IllegalStateException if the node is closed
     */
    public boolean requeue(String queue, String id) {
        ShardKeys shard = shard(queue, id);
        Object reply = withRedis(
                () -> "requeue of '" + id + "' on queue '" + queue
                        + "' was not acknowledged (requeueing again is safe)",
                () -> write(new ScriptRunner.Call(
                        Script.REQUEUE,
                        shard.keys(),
                        List.of(ShardKeys.bytes(id), channel(namespace), shard.wakeTopic()))));
        return (Long) reply == 1;
    }

    /**
     * Deletes every dead timer of a queue.
     *
     * @param queue a declared queue
     * @return how many were deleted
     * @throws NullPointerException if {@code queue} is null
     * @throws IllegalArgumentException if the queue is unknown
     * @throws RedisTimersException if Redis failed: some may have been deleted
     * @throws IllegalStateException if the node is closed
     */
    public long purgeDeadLetters(String queue) {
        ShardKeys[] shards = shards(queue);
        return withRedis(() -> "purging the dead letters of queue '" + queue + "' failed", () -> {
            long purged = 0;
            for (ShardKeys shard : shards) {
                long n;
                do {
                    n = (Long) write(new ScriptRunner.Call(
                            Script.PURGE, shard.keys(), List.of(ShardKeys.bytes(Integer.toString(PIPELINE_CHUNK)))));
                    purged += n;
                } while (n > 0);
            }
            return purged;
        });
    }

    /**
     * Stops the node within the handler timeout; see {@link #close(Duration)}. A second call does
     * nothing.
     */
    @Override
    public void close() {
        close(Duration.ofMillis(drainMillis));
    }

    /**
     * Stops the node gracefully: it claims nothing more, waits up to {@code drain} for running
     * deliveries to end (they may still use the node meanwhile, and their leases are still extended)
     * and sends their outcomes; the timers of deliveries still running then are released, due again
     * at once for the other nodes (they are told through the wake-up channel) without counting the
     * attempt, and their handlers are interrupted
     * (with the node's own pool). Then it closes its connections, and its own timer and handler pool
     * if it made them. Timers stay in Redis for the other nodes. A second call does nothing.
     *
     * @param drain how long to wait for running deliveries, not negative
     * @throws NullPointerException if {@code drain} is null
     * @throws IllegalArgumentException if {@code drain} is negative
     */
    public void close(Duration drain) {
        Objects.requireNonNull(drain, "drain");
        if (drain.isNegative()) {
            throw new IllegalArgumentException("drain must not be negative: " + drain);
        }
        synchronized (this) {
            if (closing) {
                return;
            }
            closing = true;
        }
        loop.close(drain.toMillis());
        closed = true;
        subscriber.close();
        if (ownedExecutor != null) {
            ownedExecutor.shutdownNow();
            try {
                ownedExecutor.awaitTermination(1, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (ownedTimer != null) {
            ownedTimer.close();
        }
        servers.close();
    }

    /** Returns how many claim passes have completed (for tests). */
    long passes() {
        return loop.passes();
    }

    /** Returns how many times the wake-up channel was (re)subscribed (for tests). */
    long subscriptions() {
        return loop.subscriptions();
    }

    /** Returns how long until the node claims on a shard of a queue it handles, ns (for tests). */
    long untilClaim(String queue, int shard) {
        return loop.untilClaim(queue, shard);
    }

    static byte[] channel(String namespace) {
        return ShardKeys.bytes(namespace + ":wake");
    }

    private Instant scheduleOne(String queue, ShardKeys[] shards, TimerRequest request) {
        ShardKeys shard = shards[ShardKeys.shardOf(request.id(), shards.length)];
        long due = withRedis(
                () -> "schedule of '" + request.id() + "' on queue '" + queue + "' was not acknowledged (it may or may"
                        + " not be stored; scheduling it again is safe)",
                () -> ScheduleCalls.runOne(servers, wait, shard, channel(namespace), request));
        loop.counters().scheduled(1);
        return Instant.ofEpochMilli(due);
    }

    /** Runs one write and waits for its durability. */
    private Object write(ScriptRunner.Call call) {
        return ScriptRunner.runAll(servers, List.of(call), wait).get(0);
    }

    private ShardKeys[] shards(String queue) {
        Objects.requireNonNull(queue, "queue");
        ShardKeys[] shards = layout.get(queue);
        if (shards == null) {
            throw new IllegalArgumentException("unknown queue '" + queue + "': declared queues are "
                    + layout.keySet().stream().sorted().toList());
        }
        return shards;
    }

    private ShardKeys shard(String queue, String id) {
        ShardKeys[] shards = shards(queue);
        return shards[ShardKeys.shardOf(TimerRequest.checkId(id), shards.length)];
    }

    private static ScriptRunner.Call call(Script script, ShardKeys shard, String id) {
        return new ScriptRunner.Call(script, shard.keys(), List.of(ShardKeys.bytes(id)));
    }

    private static TimerSnapshot snapshot(String queue, String id, Object reply) {
        if (reply == null) {
            return null;
        }
        List<?> r = (List<?>) reply;
        String state = new String((byte[]) r.get(0), StandardCharsets.UTF_8);
        String[] meta = new String((byte[]) r.get(1), StandardCharsets.UTF_8).split(" ", 4);
        return new TimerSnapshot(
                queue,
                id,
                Instant.ofEpochMilli(Long.parseLong(meta[0])),
                r.get(2) == null ? new byte[0] : (byte[]) r.get(2),
                Integer.parseInt(meta[1]),
                TimerState.valueOf(state.toUpperCase(Locale.ROOT)),
                state.equals("claimed") ? Optional.of(meta[3]) : Optional.empty());
    }

    private <T> T withRedis(Supplier<String> failure, Supplier<T> action) {
        checkOpen();
        try {
            return action.get();
        } catch (JedisException e) {
            throw new RedisTimersException(failure.get(), e);
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("node " + nodeId + " is closed");
        }
    }
}
