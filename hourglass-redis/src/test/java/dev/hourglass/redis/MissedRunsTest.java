package dev.hourglass.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Missed-run policies: a series runs on one node, every node stops for about five slots, a new node
 * starts. Redis's clock is the only clock (nothing to fake), so the series uses a 500 ms period and
 * a 250 ms lateness allowance instead of minutes.
 */
class MissedRunsTest {
    private static final long PERIOD = 500;
    private static final long LATENESS = 250;
    private static final long OUTAGE = 2_600;

    /** The runs before the outage, after it, and when the new node started. */
    private record Outage(List<Runs.Run> before, List<Runs.Run> after, Instant restart) {
        /** The runs after the restart whose slot was already missed when it came. */
        List<Runs.Run> missedRunAfter() {
            return after.stream()
                    .filter(r -> r.slot().isBefore(restart.minusMillis(LATENESS)))
                    .toList();
        }

        long lastBefore() {
            return before.get(before.size() - 1).occurrence();
        }
    }

    @Test
    void runAllRunsEveryMissedSlotInOrder() throws Exception {
        Outage o = outage(Recurrence.fixedRate(Duration.ofMillis(PERIOD)).missedRuns(MissedRunPolicy.RUN_ALL));
        assertThat(o.missedRunAfter().size())
                .as("missed slots run after the restart: %s", o)
                .isGreaterThanOrEqualTo(4);
        List<Runs.Run> all = concat(o);
        for (int k = 0; k < all.size(); k++) {
            assertThat(all.get(k).occurrence()).as("%s", all).isEqualTo(k + 1);
            assertThat(all.get(k).slot())
                    .as("every slot once, in order: %s", all)
                    .isEqualTo(all.get(0).slot().plusMillis(PERIOD * k));
        }
    }

    @Test
    void runOnceRunsOneOccurrenceForAllTheMissedSlots() throws Exception {
        Outage o = outage(Recurrence.fixedRate(Duration.ofMillis(PERIOD)).missedAfter(Duration.ofMillis(LATENESS)));
        assertThat(o.missedRunAfter()).as("one run for the missed slots: %s", o).hasSize(1);
        Runs.Run once = o.missedRunAfter().get(0);
        assertThat(once.occurrence()).isEqualTo(o.lastBefore() + 1);
        assertThat(o.after().size()).as("the series goes on: %s", o).isGreaterThanOrEqualTo(3);
        checkNumberedAndOnTimeAfter(o, o.lastBefore() + 1);
    }

    @Test
    void skipRunsNoneOfTheMissedSlots() throws Exception {
        Outage o = outage(Recurrence.fixedRate(Duration.ofMillis(PERIOD))
                .missedRuns(MissedRunPolicy.SKIP)
                .missedAfter(Duration.ofMillis(LATENESS)));
        assertThat(o.missedRunAfter()).as("no run for the missed slots: %s", o).isEmpty();
        assertThat(o.after().size()).as("the series goes on: %s", o).isGreaterThanOrEqualTo(2);
        // the skipped occurrence took its number without running; later ones are not numbered
        // strictly in a row here, since one claimed over 250 ms late on a loaded machine is skipped
        assertThat(o.after().get(0).occurrence()).as("%s", o).isGreaterThanOrEqualTo(o.lastBefore() + 2);
        for (Runs.Run r : o.after()) {
            assertThat(r.attempt()).isEqualTo(1);
            assertThat(r.slot()).as("%s", o).isAfterOrEqualTo(o.restart().minusMillis(LATENESS));
        }
    }

    @Test
    void runOnceOnACronSeries() throws Exception {
        Outage o = outage(Recurrence.cron("* * * * * *", ZoneId.of("UTC")).missedAfter(Duration.ofMillis(LATENESS)));
        assertThat(o.missedRunAfter()).as("one run for the missed slots: %s", o).hasSize(1);
        assertThat(o.missedRunAfter().get(0).occurrence()).isEqualTo(o.lastBefore() + 1);
        assertThat(o.after().size()).as("the series goes on: %s", o).isGreaterThanOrEqualTo(2);
    }

    /** After the restart: consecutive numbers from {@code first}; after the catch-up, slots not missed. */
    private static void checkNumberedAndOnTimeAfter(Outage o, long first) {
        List<Runs.Run> after = o.after();
        for (int k = 0; k < after.size(); k++) {
            assertThat(after.get(k).occurrence()).as("%s", o).isEqualTo(first + k);
            assertThat(after.get(k).attempt()).isEqualTo(1);
        }
        for (Runs.Run r : after.subList(o.missedRunAfter().size(), after.size())) {
            assertThat(r.slot()).as("%s", o).isAfterOrEqualTo(o.restart().minusMillis(LATENESS));
        }
    }

    private static List<Runs.Run> concat(Outage o) {
        List<Runs.Run> all = new java.util.ArrayList<>(o.before());
        all.addAll(o.after());
        return all;
    }

    private static Outage outage(Recurrence recurrence) throws Exception {
        try (RedisServerProcess server = RedisServerProcess.start("everysec")) {
            Runs runs = new Runs();
            try (RedisTimers node = RecurringTimersTest.node(server, "missed", "node-a", 5)) {
                node.register("q", runs.forNode("node-a"));
                node.scheduleRecurring("q", "s", recurrence, RecurringTimersTest.bytes("p"));
                assertThat(Runs.await(() -> runs.of("s").size() >= 2, 10_000)).isTrue();
            }
            List<Runs.Run> before = runs.of("s");
            Thread.sleep(OUTAGE); // no node runs: about five slots pass
            Instant restart = Instant.now();
            try (RedisTimers node = RecurringTimersTest.node(server, "missed", "node-b", 5)) {
                node.register("q", runs.forNode("node-b"));
                Thread.sleep(2_000);
            }
            List<Runs.Run> after =
                    runs.of("s").stream().filter(r -> r.node().equals("node-b")).toList();
            Outage o = new Outage(before, after, restart);
            System.out.println("MissedRunsTest " + recurrence + ": " + o);
            return o;
        }
    }
}
