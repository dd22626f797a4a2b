package dev.hourglass.bench.footprint;

import dev.hourglass.queue.TimerStructure;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.openjdk.jol.info.GraphLayout;

/**
 * Measures the heap each implementation retains per timer, by used heap after a full collection.
 * Run it in its own JVM with {@code -XX:+UseSerialGC} so the used-heap figure after {@code
 * System.gc()} is exact (the shootout does).
 *
 * <p>Method: for each implementation, the handle array of N slots is allocated first; then the heap
 * is read after a full GC (1) once the structure is open and empty, (2) with N timers pending,
 * their delays spread evenly over 10 to 40 s, and (3) after cancelling all N and dropping the
 * handles, while the implementation's own thread is held inside a task so it cannot clean up. Per
 * pending = ((2) - (1)) / N; per cancelled = ((3) - (1)) / N. The fixed size of the empty structure
 * comes from JOL's {@code GraphLayout} (exact, and a heap difference could not tell it from the
 * previous round's garbage), for the structures without a thread of their own. The
 * task or payload is one shared object, so it does not count; Kafka needs one TimerTask per timer,
 * which counts.
 *
 * <p>Complexity: O(N) per implementation. Ordering: implementations in the order of {@link
 * #subjects}. Thread-safety: run it from one thread.
 */
public final class Footprint {

    private static final long MIN_DELAY_NANOS = TimeUnit.SECONDS.toNanos(10);
    private static final long SPAN_NANOS = TimeUnit.SECONDS.toNanos(30);

    private Footprint() {}

    /**
     * Prints one {@link FootprintRow#toLine()} per implementation on standard output, as each is
     * measured.
     *
     * @param args {@code [N [IMPL...]]}: the number of timers (100,000 by default) and the
     *     implementations to measure (all by default; see {@link #implNames()})
     * @throws InterruptedException if interrupted while waiting for a driver thread
     */
    public static void main(String[] args) throws InterruptedException {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        if (n <= 0) {
            throw new IllegalArgumentException("N must be positive: " + n);
        }
        List<String> impls = args.length > 1 ? List.of(args).subList(1, args.length) : implNames();
        for (String impl : impls) {
            System.out.println(measure(impl, n).toLine());
            System.out.flush();
        }
    }

    /**
     * Returns the names of every implementation measured, in report order.
     *
     * @return the names
     */
    public static List<String> implNames() {
        return new ArrayList<>(subjects().keySet());
    }

    /**
     * Measures one implementation: the whole measurement twice on the same handle array, reporting
     * the second, so the JVM's start-up garbage and class loading fall into the first.
     *
     * @param impl one of {@link #implNames()}
     * @param n the number of timers
     * @return the row
     * @throws IllegalArgumentException if {@code impl} is unknown or {@code n} is not positive
     * @throws InterruptedException if interrupted while waiting for a driver thread
     */
    public static FootprintRow measure(String impl, int n) throws InterruptedException {
        if (n <= 0) {
            throw new IllegalArgumentException("n must be positive: " + n);
        }
        Named named = subjects().get(impl);
        if (named == null) {
            throw new IllegalArgumentException("impl must be one of " + implNames() + ": " + impl);
        }
        Subject subject = named.factory.apply(n);
        measure(impl, named.note, subject, n);
        return measure(impl, named.note, subject, n);
    }

    private static Map<String, Named> subjects() {
        Map<String, Named> subjects = new LinkedHashMap<>();
        for (TimerStructure structure : TimerStructure.values()) {
            subjects.put(
                    structure.name(),
                    new Named(
                            capacity -> new HourglassSubject(structure, capacity),
                            "Hourglass entry (the handle) plus its share of the structure's arrays"));
        }
        subjects.put("AGRONA", new Named(AgronaSubject::new, "one long per cell; every spoke as wide as the fullest"));
        subjects.put(
                "NETTY_HASHED_WHEEL",
                new Named(NettySubject::new, "HashedWheelTimeout; cancelled ones wait for the next tick"));
        subjects.put(
                "KAFKA_SYSTEM_TIMER", new Named(KafkaSubject::new, "TimerTaskEntry plus the TimerTask it requires"));
        subjects.put(
                "JDK_STPE_REMOVE_ON_CANCEL",
                new Named(capacity -> new JdkSubject(true, capacity), "ScheduledFutureTask plus Runnable adapter"));
        subjects.put(
                "JDK_STPE_KEEP_CANCELLED",
                new Named(
                        capacity -> new JdkSubject(false, capacity),
                        "the same; cancelled tasks stay queued until their delay ends"));
        return subjects;
    }

    private static FootprintRow measure(String impl, String note, Subject subject, int n) throws InterruptedException {
        subject.open();
        Object root = subject.root();
        long fixed = root == null ? -1 : jolSize(root);
        long empty = usedAfterGc();
        long step = SPAN_NANOS / n;
        for (int i = 0; i < n; i++) {
            subject.schedule(i, MIN_DELAY_NANOS + i * step);
        }
        subject.settle();
        long pending = usedAfterGc();
        subject.hold();
        for (int i = 0; i < n; i++) {
            subject.cancel(i);
        }
        long cancelled = usedAfterGc();
        subject.close();
        return new FootprintRow(
                impl,
                n,
                fixed,
                (double) (pending - empty) / n,
                fixed < 0 ? Double.NaN : (double) (pending - empty + fixed) / n,
                (double) (cancelled - empty) / n,
                note);
    }

    private static long jolSize(Object root) {
        try {
            return GraphLayout.parseInstance(root).totalSize();
        } catch (RuntimeException e) {
            // JOL cannot open some JDK internals (Kafka's executor); report the size as unknown
            return -1;
        }
    }

    private static long usedAfterGc() {
        System.gc();
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private record Named(IntFunction<Subject> factory, String note) {}
}
