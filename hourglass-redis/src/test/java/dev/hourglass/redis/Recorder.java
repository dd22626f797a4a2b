package dev.hourglass.redis;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** A handler for tests that records every delivery; thread-safe. */
final class Recorder implements TimerHandler {
    /** One recorded delivery. */
    record Seen(String id, String payload, int attempt, long nanoTime, String node) {}

    private final String node;
    private final Map<String, List<Seen>> byId;
    private final Object lock;

    /** A recorder of its own. */
    Recorder() {
        this("", new ConcurrentHashMap<>(), new Object());
    }

    private Recorder(String node, Map<String, List<Seen>> byId, Object lock) {
        this.node = node;
        this.byId = byId;
        this.lock = lock;
    }

    /** A handler that records into the same map under another node name. */
    Recorder forNode(String name) {
        return new Recorder(name, byId, lock);
    }

    @Override
    public void handle(Delivery d) throws Exception {
        // built first: the id must not appear in byId (awaitIds) before its delivery does
        Seen seen = new Seen(d.id(), d.payloadAsString(), d.attempt(), System.nanoTime(), node);
        byId.compute(d.id(), (k, list) -> {
            List<Seen> out = list == null ? new CopyOnWriteArrayList<>() : list;
            out.add(seen);
            return out;
        });
        synchronized (lock) {
            lock.notifyAll();
        }
    }

    Map<String, List<Seen>> byId() {
        return byId;
    }

    List<Seen> of(String id) {
        return byId.getOrDefault(id, List.of());
    }

    /** Awaits until {@code ids} distinct ids were delivered; false on timeout. */
    boolean awaitIds(int ids, Duration timeout) throws InterruptedException {
        // An id's list is in the map a moment before its first delivery is in the list: count lists.
        return await(() -> byId.values().stream().filter(l -> !l.isEmpty()).count() >= ids, timeout);
    }

    /** Awaits a condition re-checked after each delivery and every 50 ms; false on timeout. */
    boolean await(BooleanSupplier condition, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (lock) {
            while (!condition.getAsBoolean()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(lock, Math.min(left, TimeUnit.MILLISECONDS.toNanos(50)));
            }
            return true;
        }
    }

    /** Awaits any condition, polling every 20 ms (for state that lives in Redis); false on timeout. */
    static boolean eventually(BooleanSupplier condition, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(20); // polls state held in another process: there is nothing to await
        }
        return true;
    }

    /** Waits for a latch, ignoring interrupts as a hung handler would; restores the interrupt flag. */
    static void awaitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                latch.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
