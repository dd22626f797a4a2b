package dev.hourglass.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;

/**
 * A COMPARISON BASELINE for {@link RedisBenchMain}, not part of Hourglass: the simplest correct
 * at-least-once lease + ack poller on Redis. Per shard a due sorted set (id by due time), a lease
 * sorted set (id by lease expiry) and a string per payload. Schedule: SET payload + ZADD due, one
 * pipeline. Each node's loop thread claims with a Lua script per shard (pipelined over the shards)
 * that moves due ids and expired leases to the lease set with score now + lease (Redis time) and
 * returns their payloads; handles them on the loop thread; acknowledges with ZREM lease + DEL payload
 * (one pipeline); polls again at once if it got anything, else after {@value #POLL_MILLIS} ms. Same
 * shard count, batch size and lease as Hourglass's defaults. Standalone Redis only (the script
 * reads payload keys it is not given).
 *
 * <p>Complexity: O(log n) per timer in Redis. Ordering: due order within a shard. Thread-safety:
 * that of {@link BenchContender}.
 */
final class LeasePoller implements BenchContender {
    private static final int SHARDS = 1;
    private static final int BATCH = 100;
    private static final long LEASE_MILLIS = 30_000;
    private static final long POLL_MILLIS = 10;
    private static final int CHUNK = 1_000;
    private static final String CLAIM =
            """
            local t = redis.call('TIME')
            local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
            local limit = tonumber(ARGV[2])
            local out = {}
            for _, key in ipairs(KEYS) do
              if limit > 0 then
                local got = redis.call('ZRANGEBYSCORE', key, '-inf', now, 'WITHSCORES', 'LIMIT', 0, limit)
                for i = 1, #got, 2 do
                  if key == KEYS[1] then redis.call('ZREM', key, got[i]) end
                  redis.call('ZADD', KEYS[2], now + tonumber(ARGV[1]), got[i])
                  out[#out + 1] = got[i]
                  out[#out + 1] = redis.call('GET', ARGV[3] .. got[i]) or ''
                end
                limit = limit - #got / 2
              end
            end
            return out""";

    private final int port;
    private final String name;
    private final JedisPool pool;
    private final String claimSha;
    private final List<Thread> nodes = new ArrayList<>();
    private final List<JedisPool> nodePools = new ArrayList<>();
    private volatile boolean running = true;

    private LeasePoller(int port, String name) {
        this.port = port;
        this.name = name;
        this.pool = pool(port);
        try (Jedis jedis = pool.getResource()) {
            claimSha = jedis.scriptLoad(CLAIM);
        }
    }

    static LeasePoller open(int port, String name) {
        return new LeasePoller(port, name);
    }

    private static JedisPool pool(int port) {
        GenericObjectPoolConfig<Jedis> config = new GenericObjectPoolConfig<>();
        config.setMaxTotal(16);
        config.setJmxEnabled(false);
        return new JedisPool(config, "127.0.0.1", port);
    }

    private String tag(int shard) {
        return "{" + name + ":" + shard + "}:";
    }

    private void add(Pipeline p, Due d) {
        String tag = tag(d.index() % SHARDS);
        String id = Integer.toString(d.index());
        p.set(tag + "p:" + id, BenchContender.payload(d.index(), d.dueMillis()));
        p.zadd(tag + "due", d.dueMillis(), id);
    }

    @Override
    public void scheduleBatch(List<Due> timers) {
        try (Jedis jedis = pool.getResource()) {
            for (int from = 0; from < timers.size(); from += CHUNK) {
                try (Pipeline p = jedis.pipelined()) {
                    timers.subList(from, Math.min(timers.size(), from + CHUNK)).forEach(d -> add(p, d));
                }
            }
        }
    }

    @Override
    public void scheduleOne(int index, long dueMillis) {
        try (Jedis jedis = pool.getResource();
                Pipeline p = jedis.pipelined()) {
            add(p, new Due(index, dueMillis));
        }
    }

    @Override
    public void startNodes(int count, FireSink sink) {
        for (int i = 0; i < count; i++) {
            JedisPool nodePool = pool(port);
            nodePools.add(nodePool);
            Thread t = new Thread(() -> poll(nodePool, sink), name + "-poller-" + i);
            t.setDaemon(true);
            nodes.add(t);
            t.start();
        }
    }

    private void poll(JedisPool nodePool, FireSink sink) {
        String leaseArg = Long.toString(LEASE_MILLIS);
        String batchArg = Integer.toString(BATCH);
        while (running) {
            try (Jedis jedis = nodePool.getResource()) {
                List<Response<Object>> claims = new ArrayList<>(SHARDS);
                try (Pipeline p = jedis.pipelined()) {
                    for (int s = 0; s < SHARDS; s++) {
                        String tag = tag(s);
                        claims.add(p.evalsha(
                                claimSha,
                                List.of(tag + "due", tag + "lease"),
                                List.of(leaseArg, batchArg, tag + "p:")));
                    }
                }
                int got = 0;
                try (Pipeline acks = jedis.pipelined()) {
                    for (int s = 0; s < SHARDS; s++) {
                        List<?> claimed = (List<?>) claims.get(s).get();
                        String tag = tag(s);
                        for (int i = 0; i < claimed.size(); i += 2) {
                            String id = (String) claimed.get(i);
                            String payload = (String) claimed.get(i + 1);
                            if (!payload.isEmpty()) { // empty: acknowledged by another node meanwhile
                                BenchContender.deliver(sink, payload);
                            }
                            acks.zrem(tag + "lease", id);
                            acks.del(tag + "p:" + id);
                            got++;
                        }
                    }
                }
                if (got == 0) {
                    TimeUnit.MILLISECONDS.sleep(POLL_MILLIS);
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                if (running) {
                    System.err.println("poller: " + e); // a baseline: report and poll again
                }
            }
        }
    }

    @Override
    public long pending() {
        long n = 0;
        try (Jedis jedis = pool.getResource()) {
            for (int s = 0; s < SHARDS; s++) {
                n += jedis.zcard(tag(s) + "due") + jedis.zcard(tag(s) + "lease");
            }
        }
        return n;
    }

    @Override
    public void close() {
        running = false;
        for (Thread t : nodes) {
            t.interrupt();
            try {
                t.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        nodePools.forEach(JedisPool::close);
        pool.close();
    }
}
