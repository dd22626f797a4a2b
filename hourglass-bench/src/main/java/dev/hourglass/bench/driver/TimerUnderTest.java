package dev.hourglass.bench.driver;

import dev.hourglass.queue.TimerStructure;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One thread-safe timer under test, behind the operations the workloads use. Adapters stay
 * trivial so that the benchmarks measure the libraries: each method is one or two library calls.
 *
 * <p>Complexity: that of the library. Ordering: that of the library.
 *
 * <p>Thread-safety: as safe as the library, which is safe from any thread for every impl here.
 */
interface TimerUnderTest {

    /** Hourglass's timer-thread driver on the structure named after this prefix. */
    String HOURGLASS = "HOURGLASS_";

    /** Hourglass's event-loop driver on the structure named after this prefix. */
    String HOURGLASS_LOOP = "HOURGLASS_LOOP_";

    /**
     * hourglass-netty's {@code io.netty.util.Timer} over Hourglass's timer thread on the default
     * structure, 1 ms tick; not in any benchmark's default list, named with {@code -p impl=..}.
     */
    String NETTY_ADAPTER = "HOURGLASS_NETTY_ADAPTER";

    /**
     * Hourglass's {@code ScheduledExecutorService} over its timer thread on the default structure,
     * 1 ms tick; not in any benchmark's default list, named with {@code -p impl=..}.
     */
    String EXECUTOR = "HOURGLASS_EXECUTOR";

    /**
     * Hourglass's timer thread with the builder's defaults (hierarchical wheel, 0.1 ms tick), as a
     * user gets it; not in any benchmark's default list, named with {@code -p impl=..}.
     */
    String HOURGLASS_DEFAULTS = "HOURGLASS_DEFAULTS";

    /** Netty's {@code HashedWheelTimer}, tick 1 ms, 512 ticks. */
    String NETTY = "NETTY_HASHED_WHEEL";

    /** Kafka's {@code SystemTimer} (tick 1 ms, 20 buckets) driven by its {@code SystemTimerReaper}. */
    String KAFKA = "KAFKA_SYSTEM_TIMER";

    /** The JDK's {@code ScheduledThreadPoolExecutor}, one thread, remove-on-cancel on. */
    String JDK_REMOVE_ON_CANCEL = "JDK_STPE_REMOVE_ON_CANCEL";

    /** The JDK's {@code ScheduledThreadPoolExecutor}, one thread, remove-on-cancel off (its default). */
    String JDK_KEEP_CANCELLED = "JDK_STPE_KEEP_CANCELLED";

    /**
     * Schedules {@code task} once after {@code delayNanos}.
     *
     * @param task what to run, on the timer's own thread
     * @param delayNanos the delay in nanoseconds
     * @return the handle for {@link #cancel} and {@link #reschedule}
     */
    Object schedule(Task task, long delayNanos);

    /**
     * Cancels a timeout.
     *
     * @param handle a handle from this timer
     */
    void cancel(Object handle);

    /**
     * Moves a pending timeout to {@code delayNanos} from now: Hourglass's {@code Timeout.reschedule};
     * the anchors, which have no reschedule, cancel it and schedule a new one.
     *
     * @param handle a handle from this timer for a timeout that runs {@code task}
     * @param task the timeout's task, for the anchors' new timeout
     * @param delayNanos the new delay
     * @return the handle to use from now on
     */
    Object reschedule(Object handle, Task task, long delayNanos);

    /**
     * Moves a pending timeout to {@code deadline}, a reading of {@link System#nanoTime()} the
     * caller took earlier plus {@code delayNanos}: Hourglass's {@code Timeout.rescheduleAt}, which
     * reads no clock for a later move. The anchors have no such call: they do as {@link
     * #reschedule} does, reading the clock themselves.
     *
     * @param handle a handle from this timer for a timeout that runs {@code task}
     * @param task the timeout's task, for the anchors' new timeout
     * @param deadline the new deadline
     * @param delayNanos the delay the deadline was made of, for the anchors
     * @return the handle to use from now on
     */
    default Object rescheduleAt(Object handle, Task task, long deadline, long delayNanos) {
        return reschedule(handle, task, delayNanos);
    }

    /**
     * The timer's background threads as of now, whose CPU time the benchmarks report.
     *
     * @return the threads started so far
     */
    List<Thread> workers();

    /**
     * Waits until the timer's threads have caught up with everything handed to them so far: schedules
     * a timer due now and waits for it to run. Every impl here runs it only after it has taken in
     * what came before it (Hourglass applies its whole inbox first, Netty drains its queues in order,
     * the others work on the caller's thread), so work a driver defers until it next wakes (Hourglass
     * sleeps through cancels and later deadlines) happens now and counts in the iteration.
     *
     * @throws IllegalStateException if the timer did not catch up within a minute
     */
    default void flush() {
        CountDownLatch ran = new CountDownLatch(1);
        schedule(
                new Task() {
                    @Override
                    public void run() {
                        ran.countDown();
                    }
                },
                0);
        try {
            if (!ran.await(1, TimeUnit.MINUTES)) {
                throw new IllegalStateException("timer did not catch up within a minute");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the timer to catch up", e);
        }
    }

    /** Stops the timer and its threads. */
    void close();

    /**
     * Opens the timer that {@code impl} names: one of the constants above, with {@link #HOURGLASS} or
     * {@link #HOURGLASS_LOOP} followed by a {@link TimerStructure} name.
     *
     * @param impl the JMH parameter value
     * @return the running timer
     * @throws IllegalArgumentException if {@code impl} names no timer
     */
    static TimerUnderTest open(String impl) {
        switch (impl) {
            case HOURGLASS_DEFAULTS:
                return HourglassTimer.defaults();
            case NETTY:
                return new NettyTimer();
            case NETTY_ADAPTER:
                return new NettyAdapterTimer();
            case EXECUTOR:
                return new ExecutorTimer();
            case KAFKA:
                return new KafkaTimer();
            case JDK_REMOVE_ON_CANCEL:
                return new JdkTimer(true);
            case JDK_KEEP_CANCELLED:
                return new JdkTimer(false);
            default:
                if (impl.startsWith(HOURGLASS_LOOP)) {
                    return HourglassTimer.eventLoop(structure(impl, HOURGLASS_LOOP));
                }
                if (impl.startsWith(HOURGLASS)) {
                    return HourglassTimer.timerThread(structure(impl, HOURGLASS));
                }
                throw new IllegalArgumentException("impl names no timer: " + impl);
        }
    }

    private static TimerStructure structure(String impl, String prefix) {
        try {
            return TimerStructure.valueOf(impl.substring(prefix.length()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("impl names no Hourglass structure: " + impl, e);
        }
    }
}
