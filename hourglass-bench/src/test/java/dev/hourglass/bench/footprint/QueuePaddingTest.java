package dev.hourglass.bench.footprint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hourglass.queue.TimerStructure;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.openjdk.jol.info.ClassLayout;
import org.openjdk.jol.info.FieldLayout;

/**
 * In every structure, the fields of {@code AbstractTimerQueue} that the driver writes (the size on
 * each schedule and cancel; the time, the entry being delivered and the busy flag on each poll) lie
 * at least a cache line (64 bytes) past the object's header, so that no object before the queue in
 * memory shares their line: with the size next to the timer's driver, which callers read on every
 * call, both threads slowed (docs/driver-targets.md, run K). JOL reads the layout this JVM chose.
 */
class QueuePaddingTest {

    static {
        // JOL reads this once, when first used: TimerFootprintTest, in the same JVM, needs it.
        System.setProperty("jol.magicFieldOffset", "true");
    }

    private static final List<String> BUSY_FIELDS = List.of("time", "size", "delivering", "busy");

    @Test
    void theFieldsTheDriverWritesStartALineAfterTheHeader() {
        for (TimerStructure structure : TimerStructure.values()) {
            ClassLayout layout =
                    ClassLayout.parseClass(structure.newQueue(0, 1_000_000).getClass());
            List<FieldLayout> busy = layout.fields().stream()
                    .filter(f -> BUSY_FIELDS.contains(f.name()) && f.hostClass().endsWith("AbstractTimerQueue"))
                    .collect(Collectors.toList());
            assertThat(busy).as("%s: %s", structure, layout.toPrintable()).hasSize(BUSY_FIELDS.size());
            for (FieldLayout field : busy) {
                assertThat(field.offset())
                        .as("%s.%s in %s", structure, field.name(), layout.toPrintable())
                        .isGreaterThanOrEqualTo(layout.headerSize() + 64);
            }
        }
    }
}
