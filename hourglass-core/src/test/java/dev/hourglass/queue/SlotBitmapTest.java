package dev.hourglass.queue;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SlotBitmapTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4, 64, 128, 1024})
    void nextSetCyclicMatchesAWalk(int slots) {
        long seed = ModelRun.seed(slots);
        SplittableRandom random = new SplittableRandom(seed);
        SlotBitmap bitmap = new SlotBitmap(slots);
        boolean[] reference = new boolean[slots];
        for (int step = 0; step < 20_000; step++) {
            int slot = random.nextInt(slots);
            if (random.nextBoolean()) {
                bitmap.set(slot);
                reference[slot] = true;
            } else {
                bitmap.clear(slot);
                reference[slot] = false;
            }
            int from = random.nextInt(slots);
            int expected = -1;
            for (int d = 0; d < slots; d++) {
                if (reference[(from + d) % slots]) {
                    expected = d;
                    break;
                }
            }
            assertThat(bitmap.nextSetCyclic(from))
                    .as("seed %d step %d from %d", seed, step, from)
                    .isEqualTo(expected);
            assertThat(bitmap.isEmpty()).isEqualTo(expected == -1);
            assertThat(bitmap.nextSetCyclic(slot) == 0).isEqualTo(reference[slot]);
        }
    }
}
