package dev.hourglass.micrometer;

import dev.hourglass.executor.TimerExecutorService;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.function.ToLongFunction;

/**
 * The meters of a {@link TimerExecutorService}: its timer's meters (see {@link TimerMetrics}),
 * which count the executor's delayed runs, plus what only the executor sees, read when the registry
 * is read.
 *
 * <pre>{@code
 * ExecutorMetrics.of(scheduler, "grpc-deadlines", Tags.empty()).bindTo(registry);
 * }</pre>
 *
 * <table>
 *   <caption>Meters beside the timer's, each tagged {@code name} and the extra tags</caption>
 *   <tr><th>name</th><th>type</th><th>meaning</th></tr>
 *   <tr><td>{@code hourglass.executor.rejected}</td><td>function counter</td><td>tasks refused
 *       with {@code RejectedExecutionException}: after shutdown, or by the timer</td></tr>
 *   <tr><td>{@code hourglass.executor.task.exceptions}</td><td>function counter</td><td>futures
 *       completed with an exception (a task's exception goes to its future, not to the timer's
 *       handler, so {@code hourglass.timer.task.exceptions} does not count it)</td></tr>
 * </table>
 *
 * <p>An executor that borrows a timer shares its {@code hourglass.timer.*} series with whatever
 * else schedules on that timer; bind the timer once, under one name.
 *
 * <p>Meters hold the executor weakly, as Micrometer's function meters do. Complexity: binding
 * O(1); each read O(1). Thread-safety: immutable; meters may be read from any thread.
 */
public final class ExecutorMetrics implements MeterBinder {

    private final TimerExecutorService executor;
    private final String name;
    private final Iterable<Tag> extraTags;
    private final Tags tags;

    private ExecutorMetrics(TimerExecutorService executor, String name, Iterable<Tag> extraTags) {
        this.executor = executor;
        this.name = name;
        this.extraTags = extraTags;
        this.tags = MetricTags.of(name, extraTags);
    }

    /**
     * Makes the binder of {@code executor}'s meters and its timer's.
     *
     * @param executor the executor, held weakly by the meters
     * @param name the value of the {@code name} tag, which tells this executor's series from others'
     * @param extraTags more tags for every meter, e.g. {@code Tags.of("region", "eu")}
     * @return the binder; {@link #bindTo} registers the meters
     * @throws NullPointerException if an argument is null, naming it
     * @throws IllegalArgumentException if {@code extraTags} holds a tag called {@code name}
     */
    public static ExecutorMetrics of(TimerExecutorService executor, String name, Iterable<Tag> extraTags) {
        return new ExecutorMetrics(MetricTags.require(executor, "executor"), name, extraTags);
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        TimerMetrics.of(executor.timer(), name, extraTags).bindTo(registry);
        counter(
                registry,
                "hourglass.executor.rejected",
                "tasks refused after shutdown or by the timer",
                TimerExecutorService::rejectedCount);
        counter(
                registry,
                "hourglass.executor.task.exceptions",
                "futures completed with an exception",
                TimerExecutorService::failedCount);
    }

    private void counter(
            MeterRegistry registry, String meter, String description, ToLongFunction<TimerExecutorService> count) {
        FunctionCounter.builder(meter, executor, e -> count.applyAsLong(e))
                .tags(tags)
                .description(description)
                .register(registry);
    }

    @Override
    public String toString() {
        return "ExecutorMetrics[" + tags + "]";
    }
}
