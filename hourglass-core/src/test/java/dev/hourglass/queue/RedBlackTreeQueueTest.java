package dev.hourglass.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RedBlackTreeQueueTest extends TimerQueueContractTest {
    @Override
    <T> TimerQueue<T> newQueue(long startTime) {
        return TimerQueues.redBlackTree(startTime);
    }

    @Override
    WithinTickOrder order() {
        return WithinTickOrder.EXACT;
    }

    @ParameterizedTest
    @ValueSource(longs = {NEAR_MIN, 0, NEAR_MAX})
    void keepsTheRedBlackInvariantsThroughRandomOperations(long start) {
        RedBlackTreeQueue<Integer> queue = new RedBlackTreeQueue<>(start);
        StructureStress.run(queue, queue::checkInvariants, ModelRun.seed(start ^ 0x7EE), 40_000);
    }

    @Test
    void sortedInsertionsAndDrainsFromTheLeftKeepTheTreeBalanced() {
        RedBlackTreeQueue<Integer> queue = new RedBlackTreeQueue<>(0);
        List<TimerHandle<Integer>> handles = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            handles.add(queue.schedule(i, i));
        }
        queue.checkInvariants();
        for (int i = 4_000; i > 2_000; i--) {
            queue.schedule(i, i);
        }
        queue.checkInvariants();
        for (int i = 0; i < 2_000; i += 2) {
            queue.cancel(handles.get(i));
        }
        queue.checkInvariants();
        List<Integer> out = new ArrayList<>();
        queue.poll(
                3_000,
                h -> {
                    queue.checkInvariants();
                    out.add(h.payload());
                },
                Integer.MAX_VALUE);
        assertThat(out).hasSize(1_000 + 1_000).isSorted();
        queue.checkInvariants();
        assertThat(queue.nextDeadline()).isEqualTo(3_001);
    }

    @Test
    void equalDeadlinesComeOutInInsertionOrderAcrossRotations() {
        RedBlackTreeQueue<Integer> queue = new RedBlackTreeQueue<>(0);
        List<TimerHandle<Integer>> handles = new ArrayList<>();
        for (int i = 0; i < 3_000; i++) {
            handles.add(queue.schedule(i % 3, i));
        }
        for (int i = 0; i < 3_000; i += 7) {
            queue.cancel(handles.get(i));
        }
        // Moved to the same deadline, a timer still goes behind its equals.
        queue.reschedule(handles.get(1), 1);
        queue.checkInvariants();
        List<Integer> expected = new ArrayList<>();
        for (int d = 0; d < 3; d++) {
            for (int i = d; i < 3_000; i += 3) {
                if (i % 7 != 0 && i != 1) {
                    expected.add(i);
                }
            }
            if (d == 1) {
                expected.add(1);
            }
        }
        List<Integer> out = new ArrayList<>();
        queue.poll(2, h -> out.add(h.payload()), Integer.MAX_VALUE);
        assertThat(out).isEqualTo(expected);
        queue.checkInvariants();
    }

    @Test
    @SuppressWarnings("unchecked")
    void theInvariantCheckNoticesABrokenTree() {
        RedBlackTreeQueue<Integer> queue = new RedBlackTreeQueue<>(0);
        TreeNode<Integer> low = (TreeNode<Integer>) queue.schedule(1, 1);
        TreeNode<Integer> middle = (TreeNode<Integer>) queue.schedule(2, 2);
        queue.schedule(3, 3);
        queue.checkInvariants();
        // Three ascending insertions rotate into a black root with two red children.
        assertThat(middle.red).isFalse();
        assertThat(low.red).isTrue();

        middle.red = true;
        assertThatThrownBy(queue::checkInvariants)
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("root");
        middle.red = false;

        low.red = false;
        assertThatThrownBy(queue::checkInvariants)
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("black heights");
        low.red = true;

        low.deadline = 5;
        assertThatThrownBy(queue::checkInvariants)
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("in order");
        low.deadline = 1;
        queue.checkInvariants();
    }
}
