package dev.hourglass.bench.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Param;

class BenchQueuesTest {

    private static final long TICK = BenchQueues.TICK_NANOS;

    @Test
    void everyBenchmarkSweepsEveryStructureAndTheAnchor() throws NoSuchFieldException {
        for (Class<?> benchmark : List.of(
                HeartbeatBenchmark.class,
                RequestTimeoutBenchmark.class,
                FireOneTickBenchmark.class,
                FireSpreadBenchmark.class)) {
            Param param = benchmark.getDeclaredField("impl").getAnnotation(Param.class);
            assertThat(List.of(param.value())).as(benchmark.getSimpleName()).isEqualTo(BenchQueues.implNames());
        }
    }

    @Test
    void everyAdapterFiresWhatIsDueOnceAndNeverEarly() {
        for (String impl : BenchQueues.implNames()) {
            BenchQueue queue = BenchQueues.create(impl, 0, BenchQueues.AGRONA_SECOND_SPOKES, 4);
            queue.schedule(0, 3 * TICK);
            queue.schedule(1, 5 * TICK);
            queue.schedule(2, 2 * TICK);
            queue.schedule(3, 9 * TICK);
            queue.reschedule(2, 7 * TICK);
            queue.cancel(3);
            assertThat(queue.size()).as(impl).isEqualTo(3);
            assertThat(queue.pollAll(3 * TICK - 1))
                    .as(impl + " before the first deadline")
                    .isZero();
            assertThat(queue.pollAll(3 * TICK)).as(impl + " at 3 ticks").isEqualTo(1);
            assertThat(queue.pollAll(6 * TICK)).as(impl + " at 6 ticks").isEqualTo(1);
            assertThat(queue.pollAll(20 * TICK)).as(impl + " at 20 ticks").isEqualTo(1);
            assertThat(queue.size()).as(impl).isZero();
        }
    }

    @Test
    void onlyQuadraticCombinationsAreSkippedAndTheySayWhy() {
        assertThat(BenchQueues.notRunReason("FireOneTickBenchmark", "UNSORTED_LIST", 1_000_000))
                .hasValueSatisfying(reason -> assertThat(reason).startsWith("not run (O(n))"));
        assertThat(BenchQueues.notRunReason("FireOneTickBenchmark", "UNSORTED_LIST", 10_000))
                .isEmpty();
        assertThat(BenchQueues.notRunReason("FireOneTickBenchmark", "HIERARCHICAL_WHEEL", 1_000_000))
                .isEmpty();
        assertThat(BenchQueues.notRunReason("HeartbeatBenchmark", "SORTED_LIST", 1_000_000))
                .isEmpty();
        assertThatThrownBy(() -> BenchQueues.requireRun("FireSpreadBenchmark", "SORTED_LIST", 1_000_000))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("SORTED_LIST, n=1000000");
    }

    @Test
    void anUnknownImplIsNamed() {
        assertThatThrownBy(() -> BenchQueues.create("NOPE", 0, 16, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("NOPE");
    }
}
