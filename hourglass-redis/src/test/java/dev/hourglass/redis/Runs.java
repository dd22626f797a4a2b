package dev.hourglass.redis;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.BooleanSupplier;

/** Records the deliveries of recurring timers, with their occurrence, slot, attempt and node. */
final class Runs {
    /** One delivery as a handler saw it. */
    record Run(String id, long occurrence, Instant slot, int attempt, String node, Instant at) {}

    /** What a handler does after recording, e.g. throw or block. */
    interface Then {
        void after(Delivery d) throws Exception;
    }

    private final ConcurrentLinkedQueue<Run> runs = new ConcurrentLinkedQueue<>();

    TimerHandler forNode(String node) {
        return forNode(node, d -> {});
    }

    TimerHandler forNode(String node, Then then) {
        return d -> {
            runs.add(new Run(d.id(), d.occurrence(), d.occurrenceTime(), d.attempt(), node, Instant.now()));
            then.after(d);
        };
    }

    /** Returns the runs of one series by occurrence, then attempt. */
    List<Run> of(String id) {
        List<Run> out = new ArrayList<>();
        for (Run r : runs) {
            if (r.id().equals(id)) {
                out.add(r);
            }
        }
        out.sort(Comparator.comparingLong(Run::occurrence).thenComparingInt(Run::attempt));
        return out;
    }

    List<Run> all() {
        return new ArrayList<>(runs);
    }

    /** Waits until the condition holds, polling every 10 ms; false after the timeout. */
    static boolean await(BooleanSupplier condition, long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(10); // handlers run on the nodes' threads; nothing to join
        }
        return true;
    }
}
