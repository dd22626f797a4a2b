package dev.hourglass.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The cron syntax, its errors, and the daylight-saving rules on known transitions. */
class CronExpressionTest {
    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
    private static final ZoneId NEW_YORK = ZoneId.of("America/New_York");
    private static final ZoneId UTC = ZoneId.of("UTC");

    @Test
    void weekdayMorningsInBerlin() {
        CronExpression cron = CronExpression.parse("0 0 9 * * MON-FRI");
        // Friday 27 November 2026, noon: next is Monday 30 November 09:00 CET = 08:00Z
        assertThat(slots(cron, BERLIN, "2026-11-27T12:00:00Z", 3))
                .containsExactly(
                        Instant.parse("2026-11-30T08:00:00Z"),
                        Instant.parse("2026-12-01T08:00:00Z"),
                        Instant.parse("2026-12-02T08:00:00Z"));
        // in summer time 09:00 CEST = 07:00Z
        assertThat(cron.next(Instant.parse("2026-07-01T00:00:00Z"), BERLIN))
                .isEqualTo(Instant.parse("2026-07-01T07:00:00Z"));
    }

    @Test
    void listsRangesStepsNamesAndSunday() {
        assertThat(matchingValues("*/15 * * * * *", 0, 60)).containsExactly(0, 15, 30, 45);
        assertThat(matchingValues("5-20/5,59 * * * * *", 0, 60)).containsExactly(5, 10, 15, 20, 59);
        assertThat(matchingValues("50/4 * * * * *", 0, 60)).containsExactly(50, 54, 58);
        assertThat(matchingValues("3 * * * * *", 0, 60)).containsExactly(3);
        CronExpression months = CronExpression.parse("0 0 0 ? jan,Mar-MAY/2,12 *");
        assertThat(List.of(1, 2, 3, 4, 5, 6, 12).stream().filter(m -> months.matches(4, m)))
                .containsExactly(1, 3, 5, 12);
        CronExpression sundays = CronExpression.parse("0 0 0 * * 7");
        assertThat(sundays.matches(5, 0)).isTrue();
        assertThat(CronExpression.parse("0 0 0 * * 0").matches(5, 0)).isTrue();
        CronExpression weekend = CronExpression.parse("0 0 0 ? * SAT,sun");
        assertThat(List.of(0, 1, 2, 3, 4, 5, 6).stream().filter(d -> weekend.matches(5, d)))
                .containsExactly(0, 6);
        assertThat(List.of(0, 1, 2, 3, 4, 5, 6).stream()
                        .filter(d -> CronExpression.parse("0 0 0 * * 5-7").matches(5, d)))
                .containsExactly(0, 5, 6);
    }

    @Test
    void dayOfMonthAndDayOfWeekMustBothMatch() {
        // Friday the 13th at noon, UTC: after 1 January 2026 the first is 13 February 2026
        CronExpression cron = CronExpression.parse("0 0 12 13 * FRI");
        assertThat(slots(cron, UTC, "2026-01-01T00:00:00Z", 2))
                .containsExactly(Instant.parse("2026-02-13T12:00:00Z"), Instant.parse("2026-03-13T12:00:00Z"));
        // 29 February: only leap years
        assertThat(CronExpression.parse("0 0 0 29 FEB *").next(Instant.parse("2026-01-01T00:00:00Z"), UTC))
                .isEqualTo(Instant.parse("2028-02-29T00:00:00Z"));
    }

    @Test
    void badExpressionsNameTheFieldAndTheValue() {
        assertBad("0 0 25 * * *", "hour field '25': value 25 is out of range 0-23");
        assertBad("0 0 9 * * FOO", "day-of-week field 'FOO': value 'FOO' is not a number, or SUN-SAT");
        assertBad("0 0 9 * JANUARY *", "month field 'JANUARY': value 'JANUARY' is not a number, or JAN-DEC");
        assertBad("0 */0 * * * *", "minute field '*/0': step must be at least 1 in '*/0'");
        assertBad("0 */x * * * *", "minute field '*/x': step 'x' is not a number");
        assertBad("0 5-1 * * * *", "minute field '5-1': range '5-1' starts after it ends");
        assertBad("0,,1 * * * * *", "second field '0,,1': value '' is not a number");
        assertBad("60 * * * * *", "second field '60': value 60 is out of range 0-59");
        assertBad("0 0 0 0 * *", "day-of-month field '0': value 0 is out of range 1-31");
        assertBad("0 0 0 * 13 *", "month field '13': value 13 is out of range 1-12");
        assertBad("0 0 0 * * 8", "day-of-week field '8': value 8 is out of range 0-7");
        assertBad("? * * * * *", "second field '?': value '?' is not a number");
        assertBad("-1 * * * * *", "second field '-1': value '' is not a number");
        assertBad("* * * * *", "must have 6 fields (second minute hour day-of-month month day-of-week), found 5");
        assertBad("* * * * * * *", "found 7");
        assertBad("", "found 0");
        assertBad("0 0 0 30 FEB *", "never matches");
        assertBad("0 0 0 31 4,6,9,11 *", "never matches");
        assertThatThrownBy(() -> CronExpression.parse(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void aTimeInTheSpringForwardGapFiresAtTheEndOfTheGapInBerlin() {
        // 29 March 2026: 02:00 CET jumps to 03:00 CEST (01:00Z); 02:30 does not exist that day
        CronExpression cron = CronExpression.parse("0 30 2 * * *");
        assertThat(slots(cron, BERLIN, "2026-03-28T00:00:00Z", 3))
                .containsExactly(
                        Instant.parse("2026-03-28T01:30:00Z"), // 02:30 CET
                        Instant.parse("2026-03-29T01:00:00Z"), // the gap's end, 03:00 CEST
                        Instant.parse("2026-03-30T00:30:00Z")); // 02:30 CEST
        // all four quarters of the missing hour coalesce into one occurrence at the gap's end
        assertThat(slots(CronExpression.parse("0 */15 2 * * *"), BERLIN, "2026-03-29T00:00:00Z", 2))
                .containsExactly(Instant.parse("2026-03-29T01:00:00Z"), Instant.parse("2026-03-30T00:00:00Z"));
        // an occurrence at 03:00 coincides with the gap's end: one occurrence, not two
        assertThat(slots(CronExpression.parse("0 30 2 * * *"), BERLIN, "2026-03-29T00:59:59Z", 1))
                .containsExactly(Instant.parse("2026-03-29T01:00:00Z"));
        assertThat(slots(CronExpression.parse("0 0,30 2,3 * * *"), BERLIN, "2026-03-29T00:00:00Z", 3))
                .containsExactly(
                        Instant.parse("2026-03-29T01:00:00Z"), // 02:00, 02:30 and 03:00 at once
                        Instant.parse("2026-03-29T01:30:00Z"), // 03:30 CEST
                        Instant.parse("2026-03-30T00:00:00Z"));
    }

    @Test
    void aTimeInTheSpringForwardGapFiresAtTheEndOfTheGapInNewYork() {
        // 8 March 2026: 02:00 EST jumps to 03:00 EDT (07:00Z)
        assertThat(slots(CronExpression.parse("0 30 2 * * *"), NEW_YORK, "2026-03-07T00:00:00Z", 3))
                .containsExactly(
                        Instant.parse("2026-03-07T07:30:00Z"), // 02:30 EST
                        Instant.parse("2026-03-08T07:00:00Z"), // the gap's end, 03:00 EDT
                        Instant.parse("2026-03-09T06:30:00Z")); // 02:30 EDT
    }

    @Test
    void aRepeatedTimeFiresOnceAtItsFirstOccurrenceInBerlin() {
        // 25 October 2026: 03:00 CEST falls back to 02:00 CET (01:00Z); 02:30 happens twice
        assertThat(slots(CronExpression.parse("0 30 2 * * *"), BERLIN, "2026-10-24T12:00:00Z", 2))
                .containsExactly(
                        Instant.parse("2026-10-25T00:30:00Z"), // 02:30 CEST, the first; not 01:30Z
                        Instant.parse("2026-10-26T01:30:00Z")); // 02:30 CET
        // searching from inside the second pass does not fire the repeated time again
        assertThat(CronExpression.parse("0 45 2 * * *").next(Instant.parse("2026-10-25T01:10:00Z"), BERLIN))
                .isEqualTo(Instant.parse("2026-10-26T01:45:00Z"));
        // hourly: each local hour once, so 02:00 CEST (00:00Z) is followed by 03:00 CET (02:00Z)
        assertThat(slots(CronExpression.parse("0 0 * * * *"), BERLIN, "2026-10-24T23:30:00Z", 3))
                .containsExactly(
                        Instant.parse("2026-10-25T00:00:00Z"),
                        Instant.parse("2026-10-25T02:00:00Z"),
                        Instant.parse("2026-10-25T03:00:00Z"));
    }

    @Test
    void aRepeatedTimeFiresOnceAtItsFirstOccurrenceInNewYork() {
        // 1 November 2026: 02:00 EDT falls back to 01:00 EST (06:00Z); 01:30 happens twice
        assertThat(slots(CronExpression.parse("0 30 1 * * *"), NEW_YORK, "2026-10-31T12:00:00Z", 2))
                .containsExactly(
                        Instant.parse("2026-11-01T05:30:00Z"), // 01:30 EDT, the first; not 06:30Z
                        Instant.parse("2026-11-02T06:30:00Z")); // 01:30 EST
    }

    @Test
    void nextIsStrictlyAfterAndIgnoresFractionsOfASecond() {
        CronExpression every = CronExpression.parse("* * * * * *");
        assertThat(every.next(Instant.parse("2026-01-01T00:00:00Z"), UTC))
                .isEqualTo(Instant.parse("2026-01-01T00:00:01Z"));
        assertThat(every.next(Instant.parse("2026-01-01T00:00:00.999Z"), UTC))
                .isEqualTo(Instant.parse("2026-01-01T00:00:01Z"));
        assertThat(CronExpression.parse("0 0 0 1 1 *").nextLocal(LocalDateTime.of(2026, 1, 1, 0, 0, 1)))
                .isEqualTo(LocalDateTime.of(2027, 1, 1, 0, 0));
    }

    private static void assertBad(String text, String message) {
        assertThatThrownBy(() -> CronExpression.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cron expression '" + text + "'")
                .hasMessageContaining(message);
    }

    private static List<Integer> matchingValues(String text, int from, int to) {
        CronExpression cron = CronExpression.parse(text);
        List<Integer> out = new ArrayList<>();
        for (int v = from; v < to; v++) {
            if (cron.matches(0, v)) {
                out.add(v);
            }
        }
        return out;
    }

    private static List<Instant> slots(CronExpression cron, ZoneId zone, String after, int n) {
        List<Instant> out = new ArrayList<>();
        Instant t = Instant.parse(after);
        for (int i = 0; i < n; i++) {
            t = cron.next(t, zone);
            out.add(t);
        }
        return out;
    }
}
