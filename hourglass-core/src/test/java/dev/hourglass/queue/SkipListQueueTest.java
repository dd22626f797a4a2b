package dev.hourglass.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SkipListQueueTest extends TimerQueueContractTest {
    @Override
    <T> TimerQueue<T> newQueue(long startTime) {
        return TimerQueues.skipList(startTime);
    }

    @Override
    WithinTickOrder order() {
        return WithinTickOrder.EXACT;
    }

    @ParameterizedTest
    @ValueSource(longs = {NEAR_MIN, 0, NEAR_MAX})
    void keepsTheSkipListInvariantsThroughRandomOperations(long start) {
        SkipListQueue<Integer> queue = new SkipListQueue<>(start);
        StructureStress.run(queue, queue::checkInvariants, ModelRun.seed(start ^ 0x5C1), 40_000);
    }

    @Test
    void levelsAreGeometricWithAQuarterAndRepeatExactly() {
        SkipListQueue<Integer> a = new SkipListQueue<>(0);
        SkipListQueue<Integer> b = new SkipListQueue<>(0);
        int n = 200_000;
        int[] atLeast = new int[SkipListQueue.MAX_LEVEL + 1];
        for (int i = 0; i < n; i++) {
            int level = ((SkipNode<Integer>) a.schedule(i, i)).level();
            assertThat(((SkipNode<Integer>) b.schedule(-i, i)).level())
                    .as("same draw in another queue, whatever the deadline")
                    .isEqualTo(level);
            assertThat(level).isBetween(1, SkipListQueue.MAX_LEVEL);
            for (int k = 1; k <= level; k++) {
                atLeast[k]++;
            }
        }
        assertThat(atLeast[2] / (double) n).isCloseTo(1 / 4.0, offset(0.005));
        assertThat(atLeast[3] / (double) n).isCloseTo(1 / 16.0, offset(0.003));
        assertThat(atLeast[4] / (double) n).isCloseTo(1 / 64.0, offset(0.002));
        a.checkInvariants();
        b.checkInvariants();
    }

    @Test
    void rescheduleKeepsTheNodeItsLevelAndItsArrays() {
        SkipListQueue<Integer> queue = new SkipListQueue<>(0);
        for (int i = 0; i < 1_000; i++) {
            queue.schedule(i, i);
        }
        SkipNode<Integer> node = null;
        for (int i = 0; node == null || node.level() < 3; i++) {
            node = (SkipNode<Integer>) queue.schedule(500, -i);
        }
        SkipNode<Integer>[] next = node.next;
        SkipNode<Integer>[] prev = node.prev;
        int level = node.level();
        for (long d : new long[] {0, 999, 2_000, 500, -5, 500}) {
            queue.reschedule(node, d);
            queue.checkInvariants();
        }
        assertThat(node.next).isSameAs(next);
        assertThat(node.prev).isSameAs(prev);
        assertThat(node.level()).isEqualTo(level);
        assertThat(queue.cancel(node)).isTrue();
        assertThat(next).containsOnlyNulls();
        assertThat(prev).containsOnlyNulls();
        queue.checkInvariants();
    }

    @Test
    void theHeadShrinksWhenItsTallestNodeLeavesAndClearEmptiesEveryLevel() {
        SkipListQueue<Integer> queue = new SkipListQueue<>(0);
        SkipNode<Integer> tall = null;
        for (int i = 0; tall == null; i++) {
            SkipNode<Integer> node = (SkipNode<Integer>) queue.schedule(i, i);
            if (node.level() >= 4) {
                tall = node;
            }
        }
        queue.checkInvariants();
        queue.cancel(tall);
        queue.checkInvariants();
        assertThat(queue.clear(h -> assertThat(h.isPending()).isFalse())).isPositive();
        queue.checkInvariants();
        queue.schedule(3, 3);
        queue.checkInvariants();
        assertThat(queue.nextDeadline()).isEqualTo(3);
    }

    @Test
    void theInvariantCheckNoticesABrokenList() {
        SkipListQueue<Integer> queue = new SkipListQueue<>(0);
        SkipNode<Integer> low = (SkipNode<Integer>) queue.schedule(1, 1);
        SkipNode<Integer> high = (SkipNode<Integer>) queue.schedule(2, 2);
        queue.checkInvariants();

        low.deadline = 3;
        assertThatThrownBy(queue::checkInvariants)
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("in order");
        low.deadline = 1;

        high.prev[0] = high;
        assertThatThrownBy(queue::checkInvariants)
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("back link");
        high.prev[0] = low;
        queue.checkInvariants();
    }
}
