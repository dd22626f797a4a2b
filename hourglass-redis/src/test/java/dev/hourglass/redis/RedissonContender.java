package dev.hourglass.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.redisson.Redisson;
import org.redisson.api.RBlockingQueue;
import org.redisson.api.RDelayedQueue;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;

/**
 * Redisson's {@link RDelayedQueue} over an {@link RBlockingQueue} as a contender of {@link
 * RedisBenchMain}: the producer offers with a delay ({@code offerAsync} for a batch, up to {@value #WINDOW} outstanding); each node is a
 * Redisson client of its own holding the delayed queue (whose transfer task moves due elements to
 * the destination list) and {@value #CONSUMERS} threads taking from the destination queue (as many
 * as Hourglass's default handler threads). Redisson's defaults except the codec: {@link
 * StringCodec}, the cheapest. A take removes the element: at most once, there is no ack.
 *
 * <p>Complexity, ordering: those of Redisson. Thread-safety: that of {@link BenchContender}.
 */
final class RedissonContender implements BenchContender {
    private static final int CONSUMERS = 4;
    private static final int WINDOW = 1_000;

    private final int port;
    private final String name;
    private final RedissonClient producer;
    private final RBlockingQueue<String> queue;
    private final RDelayedQueue<String> delayed;
    private final List<RedissonClient> nodes = new ArrayList<>();
    private final List<RDelayedQueue<String>> nodeQueues = new ArrayList<>();
    private final List<Thread> consumers = new ArrayList<>();
    private volatile boolean running = true;

    private RedissonContender(int port, String name) {
        this.port = port;
        this.name = name;
        this.producer = client(port);
        this.queue = producer.getBlockingQueue(name);
        this.delayed = producer.getDelayedQueue(queue);
    }

    static RedissonContender open(int port, String name) {
        return new RedissonContender(port, name);
    }

    private static RedissonClient client(int port) {
        Config config = new Config();
        config.setCodec(StringCodec.INSTANCE);
        config.useSingleServer().setAddress("redis://127.0.0.1:" + port);
        return Redisson.create(config);
    }

    private static long delay(long dueMillis) {
        return Math.max(0, dueMillis - System.currentTimeMillis());
    }

    @Override
    public void scheduleBatch(List<Due> timers) {
        // at most WINDOW offers outstanding: all at once exhaust Redisson's connection acquisition
        Semaphore window = new Semaphore(WINDOW);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        for (Due d : timers) {
            window.acquireUninterruptibly();
            delayed.offerAsync(
                            BenchContender.payload(d.index(), d.dueMillis()),
                            delay(d.dueMillis()),
                            TimeUnit.MILLISECONDS)
                    .whenComplete((ok, e) -> {
                        if (e != null) {
                            failure.compareAndSet(null, e);
                        }
                        window.release();
                    });
        }
        window.acquireUninterruptibly(WINDOW);
        if (failure.get() != null) {
            throw new IllegalStateException("an offer failed", failure.get());
        }
    }

    @Override
    public void scheduleOne(int index, long dueMillis) {
        delayed.offer(BenchContender.payload(index, dueMillis), delay(dueMillis), TimeUnit.MILLISECONDS);
    }

    @Override
    public void startNodes(int count, FireSink sink) {
        for (int n = 0; n < count; n++) {
            RedissonClient node = client(port);
            nodes.add(node);
            RBlockingQueue<String> destination = node.getBlockingQueue(name);
            nodeQueues.add(node.getDelayedQueue(destination));
            for (int c = 0; c < CONSUMERS; c++) {
                String threadName = name + "-consumer-" + n + "-" + c;
                Thread t = new Thread(() -> consume(destination, sink), threadName);
                t.setDaemon(true);
                consumers.add(t);
                t.start();
            }
        }
    }

    private void consume(RBlockingQueue<String> destination, FireSink sink) {
        while (running) {
            try {
                String payload = destination.poll(100, TimeUnit.MILLISECONDS);
                if (payload != null) {
                    BenchContender.deliver(sink, payload);
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                if (running) {
                    System.err.println("redisson consumer: " + e);
                }
            }
        }
    }

    @Override
    public long pending() {
        return delayed.size() + queue.size();
    }

    @Override
    public void close() {
        running = false;
        for (Thread t : consumers) {
            try {
                t.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        nodeQueues.forEach(RDelayedQueue::destroy);
        nodes.forEach(RedissonClient::shutdown);
        delayed.destroy();
        producer.shutdown();
    }
}
