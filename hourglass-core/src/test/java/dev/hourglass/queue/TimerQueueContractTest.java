package dev.hourglass.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The contract every {@link TimerQueue} keeps, run against each structure by a small subclass that
 * makes the queue and declares its capabilities: its tick, its order within a tick and its range.
 * Times are written as offsets from a start time, and every scenario runs from starts near {@code
 * Long.MIN_VALUE}, 0 and {@code Long.MAX_VALUE}, so wrap-around is always exercised.
 *
 * <p>A broken structure may loop forever instead of failing, so each test runs under a timeout on a
 * separate thread.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
abstract class TimerQueueContractTest {

    static final long NEAR_MIN = Long.MIN_VALUE + 3;
    static final long NEAR_MAX = Long.MAX_VALUE - 5_000;

    /** Makes an empty queue that starts at {@code startTime}. */
    abstract <T> TimerQueue<T> newQueue(long startTime);

    /** How the structure orders timers due in the same tick. */
    abstract WithinTickOrder order();

    /** The furthest a deadline may lie beyond the current tick, in ticks; unbounded by default. */
    long rangeTicks() {
        return Long.MAX_VALUE;
    }

    /** The structure's tick, read once per test: a wheel may allocate all its slots when made. */
    private long tick;

    private long tick() {
        if (tick == 0) {
            tick = newQueue(0).tick();
        }
        return tick;
    }

    /** The first time at or after {@code deadline} at which the structure must deliver it. */
    private long due(long start, long deadline) {
        long tick = tick();
        return start + QueueModel.ceilDiv(deadline - start, tick) * tick;
    }

    private static List<Integer> poll(TimerQueue<Integer> queue, long now) {
        List<Integer> out = new ArrayList<>();
        queue.poll(now, h -> out.add(h.payload()), Integer.MAX_VALUE);
        return out;
    }

    @ParameterizedTest
    @ValueSource(longs = {NEAR_MIN, -1, 0, NEAR_MAX})
    void neverEarlyAndPrompt(long start) {
        TimerQueue<Integer> queue = newQueue(start);
        long deadline = start + 3 * tick() + 1;
        TimerHandle<Integer> handle = queue.schedule(deadline, 7);
        long due = due(start, deadline);
        assertThat(queue.nextDeadline()).isEqualTo(due);
        assertThat(poll(queue, due - 1)).isEmpty();
        assertThat(handle.isPending()).isTrue();
        assertThat(poll(queue, due)).containsExactly(7);
        assertThat(handle.isPending()).isFalse();
        assertThat(handle.deadline()).isEqualTo(deadline);
        assertThat(queue.isEmpty()).isTrue();
        assertThat(queue.time()).isEqualTo(due);
    }

    @ParameterizedTest
    @ValueSource(longs = {NEAR_MIN, 0, NEAR_MAX})
    void deliversInDeadlineOrderAcrossTheWrap(long start) {
        TimerQueue<Integer> queue = newQueue(start);
        long tick = tick();
        for (int i = 9; i >= 0; i--) {
            queue.schedule(start + i * 1_000L * tick, i);
        }
        List<Integer> out = new ArrayList<>();
        for (long t = start; out.size() < 10; t += 500 * tick) {
            out.addAll(poll(queue, t));
        }
        assertThat(out).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
    }

    @Test
    void equalDeadlinesInInsertionOrderWhereTheStructurePromisesIt() {
        assumeTrue(order() != WithinTickOrder.ANY);
        TimerQueue<Integer> queue = newQueue(0);
        List<TimerHandle<Integer>> handles = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            handles.add(queue.schedule(10 * tick(), i));
        }
        queue.reschedule(handles.get(0), 10 * tick());
        List<Integer> expected = new ArrayList<>();
        for (int i = 1; i < 100; i++) {
            expected.add(i);
        }
        expected.add(0);
        assertThat(poll(queue, 10 * tick())).isEqualTo(expected);
    }

    @Test
    void moreTimersInOneTickThanAWheelHasSlots() {
        TimerQueue<Integer> queue = newQueue(0);
        int n = 70_000;
        for (int i = 0; i < n; i++) {
            queue.schedule(5 * tick(), i);
        }
        assertThat(queue.size()).isEqualTo(n);
        assertThat(poll(queue, 5 * tick() - 1)).isEmpty();
        assertThat(poll(queue, 5 * tick())).hasSize(n).doesNotHaveDuplicates();
        assertThat(queue.isEmpty()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(longs = {NEAR_MIN, 0, NEAR_MAX})
    void delaysOfZeroOneAndMaxValue(long start) {
        TimerQueue<Integer> queue = newQueue(start);
        queue.schedule(start, 0);
        queue.schedule(start + 1, 1);
        assertThat(poll(queue, start)).containsExactly(0);
        assertThat(poll(queue, due(start, start + 1))).containsExactly(1);
        if (rangeTicks() == Long.MAX_VALUE) {
            long now = queue.time();
            TimerHandle<Integer> never = queue.schedule(now + Long.MAX_VALUE, 2);
            queue.schedule(now - 10, 3);
            assertThat(poll(queue, now)).containsExactly(3);
            assertThat(queue.nextDeadline() - now).isGreaterThanOrEqualTo(Long.MAX_VALUE - tick());
            assertThat(poll(queue, now + Long.MAX_VALUE / 2)).isEmpty();
            assertThat(poll(queue, now + Long.MAX_VALUE - 1)).isEmpty();
            assertThat(never.isPending()).isTrue();
            long due = queue.nextDeadline();
            assertThat(poll(queue, due)).containsExactly(2);
        }
    }

    @Test
    void cancelReportsWhetherItRemovedAPendingTimer() {
        TimerQueue<Integer> queue = newQueue(0);
        TimerHandle<Integer> a = queue.schedule(tick(), 1);
        TimerHandle<Integer> b = queue.schedule(2 * tick(), 2);
        assertThat(queue.cancel(a)).isTrue();
        assertThat(queue.cancel(a)).isFalse();
        assertThat(a.isPending()).isFalse();
        assertThat(queue.size()).isEqualTo(1);
        assertThat(poll(queue, 2 * tick())).containsExactly(2);
        assertThat(queue.cancel(b)).isFalse();
        assertThat(queue.size()).isZero();
    }

    @Test
    void rescheduleKeepsTheHandleEarlierAndLater() {
        TimerQueue<Integer> queue = newQueue(0);
        TimerHandle<Integer> a = queue.schedule(10 * tick(), 1);
        queue.schedule(5 * tick(), 2);
        queue.reschedule(a, 2 * tick());
        assertThat(a.deadline()).isEqualTo(2 * tick());
        assertThat(poll(queue, 2 * tick())).containsExactly(1);
        TimerHandle<Integer> c = queue.schedule(6 * tick(), 3);
        queue.reschedule(c, 100 * tick());
        assertThat(poll(queue, 50 * tick())).containsExactly(2);
        assertThat(queue.nextDeadline()).isEqualTo(100 * tick());
        assertThat(poll(queue, 100 * tick())).containsExactly(3);
    }

    @Test
    void staleAndForeignHandlesAreRefused() {
        TimerQueue<Integer> queue = newQueue(0);
        TimerQueue<Integer> other = newQueue(0);
        TimerHandle<Integer> foreign = other.schedule(tick(), 9);
        TimerHandle<Integer> fired = queue.schedule(0, 1);
        poll(queue, 0);
        TimerHandle<Integer> pending = queue.schedule(tick(), 2);
        assertThatThrownBy(() -> queue.reschedule(fired, tick()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("stale");
        assertThatThrownBy(() -> queue.cancel(foreign))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("another queue");
        assertThatThrownBy(() -> queue.reschedule(foreign, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("another queue");
        assertThatThrownBy(() -> queue.cancel(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("handle");
        assertThat(queue.size()).isEqualTo(1);
        assertThat(pending.isPending()).isTrue();
        assertThat(foreign.isPending()).isTrue();
        assertThat(other.size()).isEqualTo(1);
    }

    @Test
    void badArgumentsNameTheArgumentAndLeaveTheQueueUnchanged() {
        TimerQueue<Integer> queue = newQueue(100);
        queue.schedule(100 + tick(), 1);
        assertThatThrownBy(() -> queue.schedule(0, null))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("payload");
        assertThatThrownBy(() -> queue.poll(100, null, 1))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("consumer");
        assertThatThrownBy(() -> queue.poll(100, h -> {}, -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("limit")
                .hasMessageContaining("-1");
        assertThatThrownBy(() -> queue.poll(99, h -> {}, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("now")
                .hasMessageContaining("99");
        assertThatThrownBy(() -> queue.clear(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("consumer");
        assertThat(queue.size()).isEqualTo(1);
        assertThat(queue.time()).isEqualTo(100);
        assertThat(queue.nextDeadline()).isEqualTo(100 + tick());
    }

    @ParameterizedTest
    @ValueSource(longs = {NEAR_MIN, 0, NEAR_MAX})
    void anEmptyQueuesNextDeadlineIsTheFurthestTimeItCanExpress(long start) {
        TimerQueue<Integer> queue = newQueue(start);
        assertThat(queue.nextDeadline()).isEqualTo(start + Long.MAX_VALUE);
        assertThat(queue.poll(start + 1_000, h -> {}, 10)).isZero();
        assertThat(queue.time()).isEqualTo(start + 1_000);
        assertThat(queue.nextDeadline()).isEqualTo(start + 1_000 + Long.MAX_VALUE);
        TimerHandle<Integer> h = queue.schedule(start + 5 * tick(), 1);
        queue.cancel(h);
        assertThat(queue.nextDeadline()).isEqualTo(queue.time() + Long.MAX_VALUE);
        queue.schedule(start + 5 * tick(), 2);
        queue.clear(x -> {});
        assertThat(queue.nextDeadline()).isEqualTo(queue.time() + Long.MAX_VALUE);
        queue.schedule(queue.time() + 5 * tick(), 3);
        queue.poll(queue.nextDeadline(), x -> {}, 10);
        assertThat(queue.isEmpty()).isTrue();
        assertThat(queue.nextDeadline()).isEqualTo(queue.time() + Long.MAX_VALUE);
    }

    @Test
    void anEmptyQueuesNextDeadlineAllocatesNothing() {
        assumeTrue(allocationIsMeasured());
        TimerQueue<Integer> queue = newQueue(0);
        long sum = 0;
        for (int i = 0; i < 100_000; i++) {
            sum += queue.nextDeadline();
        }
        long before = allocatedBytes();
        for (int i = 0; i < 1_000_000; i++) {
            sum += queue.nextDeadline();
        }
        long allocated = allocatedBytes() - before;
        assertThat(sum).isEqualTo(1_100_000 * Long.MAX_VALUE);
        assertThat(allocated).as("bytes allocated by 1e6 calls").isLessThan(10_000);
    }

    private static boolean allocationIsMeasured() {
        return ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean threads
                && threads.isThreadAllocatedMemorySupported()
                && threads.isThreadAllocatedMemoryEnabled();
    }

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean())
                .getThreadAllocatedBytes(Thread.currentThread().getId());
    }

    @Test
    void limitBoundsEachPollAndTheRestComeNext() {
        TimerQueue<Integer> queue = newQueue(0);
        for (int i = 0; i < 10; i++) {
            queue.schedule(i * tick(), i);
        }
        List<Integer> out = new ArrayList<>();
        assertThat(queue.poll(100 * tick(), h -> out.add(h.payload()), 0)).isZero();
        assertThat(queue.poll(100 * tick(), h -> out.add(h.payload()), 3)).isEqualTo(3);
        assertThat(queue.poll(100 * tick(), h -> out.add(h.payload()), 3)).isEqualTo(3);
        assertThat(queue.poll(100 * tick(), h -> out.add(h.payload()), 10)).isEqualTo(4);
        assertThat(out).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
    }

    @Test
    void consumerMayRearmItsOwnTimerWithoutAllocating() {
        TimerQueue<Integer> queue = newQueue(0);
        TimerHandle<Integer> periodic = queue.schedule(tick(), 1);
        int[] runs = {0};
        Consumer<TimerHandle<Integer>> rearm = h -> {
            runs[0]++;
            queue.reschedule(h, h.deadline() + tick());
        };
        for (long t = tick(); t <= 100 * tick(); t += tick()) {
            assertThat(queue.poll(t, rearm, Integer.MAX_VALUE)).isEqualTo(1);
        }
        assertThat(runs[0]).isEqualTo(100);
        assertThat(periodic.isPending()).isTrue();
        assertThat(queue.size()).isEqualTo(1);
    }

    @Test
    void consumerMayScheduleCancelAndRescheduleOthers() {
        TimerQueue<Integer> queue = newQueue(0);
        TimerHandle<Integer> victim = queue.schedule(2 * tick(), 2);
        TimerHandle<Integer> mover = queue.schedule(50 * tick(), 3);
        queue.schedule(tick(), 1);
        List<Integer> out = new ArrayList<>();
        queue.poll(
                3 * tick(),
                h -> {
                    out.add(h.payload());
                    if (h.payload() == 1) {
                        assertThat(queue.cancel(victim)).isTrue();
                        assertThat(queue.cancel(h)).isFalse();
                        queue.reschedule(mover, 3 * tick());
                        queue.schedule(0, 4);
                    }
                },
                Integer.MAX_VALUE);
        assertThat(out).containsExactlyInAnyOrder(1, 3, 4);
        assertThat(out.get(0)).isEqualTo(1);
        assertThat(queue.isEmpty()).isTrue();
    }

    @Test
    void pollAndClearCannotNestInsidePoll() {
        TimerQueue<Integer> queue = newQueue(0);
        queue.schedule(0, 1);
        queue.schedule(0, 2);
        queue.poll(
                0,
                h -> {
                    assertThatThrownBy(() -> queue.poll(0, x -> {}, 1)).isInstanceOf(IllegalStateException.class);
                    assertThatThrownBy(() -> queue.clear(x -> {})).isInstanceOf(IllegalStateException.class);
                },
                1);
        assertThat(queue.size()).isEqualTo(1);
        assertThat(poll(queue, 0)).containsExactly(2);
    }

    @Test
    void aThrowingConsumerLeavesTheQueueUsable() {
        TimerQueue<Integer> queue = newQueue(0);
        queue.schedule(0, 1);
        queue.schedule(tick(), 2);
        assertThatThrownBy(() -> queue.poll(
                        tick(),
                        h -> {
                            throw new IllegalStateException("boom");
                        },
                        10))
                .hasMessage("boom");
        assertThat(queue.size()).isEqualTo(1);
        assertThat(poll(queue, tick())).containsExactly(2);
    }

    @Test
    void clearHandsOverEveryPendingTimerAndTheQueueStaysUsable() {
        TimerQueue<Integer> queue = newQueue(0);
        List<TimerHandle<Integer>> handles = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            handles.add(queue.schedule((i % 300) * 37L * tick(), i));
        }
        queue.cancel(handles.get(5));
        List<Integer> cleared = new ArrayList<>();
        assertThat(queue.clear(h -> {
                    assertThat(h.isPending()).isFalse();
                    cleared.add(h.payload());
                }))
                .isEqualTo(999);
        assertThat(cleared).hasSize(999).doesNotContain(5).doesNotHaveDuplicates();
        assertThat(queue.isEmpty()).isTrue();
        assertThat(queue.cancel(handles.get(0))).isFalse();
        assertThatThrownBy(() -> queue.reschedule(handles.get(1), 0)).isInstanceOf(IllegalStateException.class);
        queue.schedule(tick(), 7);
        assertThat(poll(queue, tick())).containsExactly(7);
    }

    @Test
    void rescheduleAllocatesNothing() {
        java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        assumeTrue(bean instanceof com.sun.management.ThreadMXBean);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) bean;
        assumeTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled());
        TimerQueue<Integer> queue = newQueue(0);
        List<TimerHandle<Integer>> handles = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            handles.add(queue.schedule(i * tick(), i));
        }
        SplittableRandom random = new SplittableRandom(1);
        long[] deadlines = new long[200_000];
        for (int i = 0; i < deadlines.length; i++) {
            deadlines[i] = random.nextLong(1, 5_000) * tick();
        }
        // Warm up so that the measured loop runs compiled code.
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < deadlines.length; i++) {
                queue.reschedule(handles.get(i % 1_000), deadlines[i]);
            }
        }
        long id = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(id);
        for (int i = 0; i < deadlines.length; i++) {
            queue.reschedule(handles.get(i % 1_000), deadlines[i]);
        }
        long allocated = threads.getThreadAllocatedBytes(id) - before;
        // A few hundred bytes of measurement noise; one object per reschedule would be megabytes.
        assertThat(allocated)
                .as("bytes allocated by %d reschedules", deadlines.length)
                .isLessThan(10_000);
    }

    @Test
    void beyondTheRangeIsRefusedWithTheRangeNamed() {
        assumeTrue(rangeTicks() != Long.MAX_VALUE);
        TimerQueue<Integer> queue = newQueue(0);
        TimerHandle<Integer> h = queue.schedule(tick(), 1);
        long beyond = (rangeTicks() + 1) * tick();
        assertThatThrownBy(() -> queue.schedule(beyond, 2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("range")
                .hasMessageContaining(Long.toString(beyond));
        assertThatThrownBy(() -> queue.reschedule(h, beyond)).isInstanceOf(IllegalArgumentException.class);
        assertThat(queue.nextDeadline()).isEqualTo(tick());
        queue.schedule(rangeTicks() * tick(), 3);
        assertThat(queue.size()).isEqualTo(2);
    }

    // ---- the model-based test ----

    @ParameterizedTest
    @ValueSource(longs = {NEAR_MIN, 0, NEAR_MAX})
    void matchesTheReferenceModel(long start) {
        long seed = ModelRun.seed(start);
        new ModelRun(this::newQueue, start, tick(), order(), rangeTicks(), seed).run(350_000);
    }

    @ParameterizedTest
    @ValueSource(longs = {NEAR_MIN, 0, NEAR_MAX})
    void matchesTheReferenceModelWithPollsFarPastALaggingTick(long start) {
        long seed = ModelRun.seed(~start);
        new ModelRun(this::newQueue, start, tick(), order(), rangeTicks(), seed)
                .jumpsPastTheLaggingTick()
                .run(100_000);
    }

    @Test
    void matchesTheReferenceModelFromARandomStart() {
        long seed = ModelRun.seed(42);
        long start = new SplittableRandom(seed).nextLong();
        new ModelRun(this::newQueue, start, tick(), order(), rangeTicks(), seed).run(50_000);
    }
}
