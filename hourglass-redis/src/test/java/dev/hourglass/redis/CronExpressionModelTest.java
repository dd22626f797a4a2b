package dev.hourglass.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link CronExpression#next} against a brute-force reference that steps second by second through
 * the instants of a day and applies the documented rules literally: an instant fires if its local
 * time matches and it is that local time's first (earlier-offset) instant, or if it is the end of a
 * daylight-saving gap in which some local time matches. Random expressions, zones with odd rules
 * (30-minute and 2-hour shifts, midnight transitions, a skipped day) and start points, half of them
 * near a transition; seeded, the seed printed.
 */
class CronExpressionModelTest {
    private static final List<String> ZONES = List.of(
            "Europe/Berlin",
            "America/New_York",
            "Australia/Lord_Howe",
            "America/Sao_Paulo",
            "Pacific/Apia",
            "Asia/Kathmandu",
            "UTC",
            "America/St_Johns",
            "Pacific/Chatham",
            "Africa/Casablanca",
            "Antarctica/Troll",
            "Europe/London");
    private static final long HORIZON_SECONDS = 86_400;
    private static final int CASES = 400;

    @Test
    void nextMatchesTheBruteForceReferenceOverRandomExpressionsZonesAndTransitions() {
        long seed = seed();
        System.out.println("CronExpressionModelTest seed: " + seed + " (rerun with -Dhourglass.seed=" + seed + ")");
        Random random = new Random(seed);
        int found = 0;
        int gapEnds = 0;
        int repeated = 0;
        for (int c = 0; c < CASES; c++) {
            ZoneId zone = ZoneId.of(ZONES.get(random.nextInt(ZONES.size())));
            Instant after = randomStart(random, zone);
            String text = c % 4 == 0 ? expressionNearATransition(random, zone, after) : randomExpression(random);
            CronExpression cron;
            try {
                cron = CronExpression.parse(text);
            } catch (IllegalArgumentException e) {
                assertThat(e).hasMessageContaining("never matches"); // e.g. 30-31 in FEB
                c--;
                continue;
            }
            for (int step = 0; step < 5; step++) {
                Instant expected = reference(cron, zone, after);
                Instant actual = cron.next(after, zone);
                String what = "'" + text + "' in " + zone + " after " + after + " (seed " + seed + ")";
                if (expected == null) {
                    assertThat(actual == null || actual.isAfter(after.plusSeconds(HORIZON_SECONDS)))
                            .as("%s: nothing within a day, but next gave %s", what, actual)
                            .isTrue();
                    break;
                }
                assertThat(actual).as(what).isEqualTo(expected);
                found++;
                ZoneRules rules = zone.getRules();
                ZoneOffsetTransition near = rules.previousTransition(expected.plusSeconds(1));
                if (near != null && near.getInstant().equals(expected) && near.isGap()) {
                    gapEnds++;
                }
                if (rules.getValidOffsets(LocalDateTime.ofInstant(expected, zone))
                                .size()
                        == 2) {
                    repeated++;
                }
                after = random.nextBoolean() ? expected : expected.plusMillis(random.nextInt(1000));
            }
        }
        System.out.println("CronExpressionModelTest: " + found + " occurrences compared, " + gapEnds
                + " at the end of a gap, " + repeated + " in a repeated hour");
        assertThat(found).as("cases that found an occurrence (seed %d)", seed).isGreaterThan(CASES / 2);
        assertThat(gapEnds)
                .as("occurrences at the end of a gap (seed %d)", seed)
                .isGreaterThan(5);
        assertThat(repeated)
                .as("occurrences in a repeated hour (seed %d)", seed)
                .isGreaterThan(5);
    }

    /** The documented rules, applied to every second of the day after {@code after}. */
    static Instant reference(CronExpression cron, ZoneId zone, Instant after) {
        ZoneRules rules = zone.getRules();
        long first = after.getEpochSecond() + 1;
        Set<Long> gapEnds = new HashSet<>();
        List<ZoneOffsetTransition> gaps = new ArrayList<>();
        for (ZoneOffsetTransition t = rules.nextTransition(Instant.ofEpochSecond(first - 1));
                t != null && t.getInstant().getEpochSecond() <= first + HORIZON_SECONDS;
                t = rules.nextTransition(t.getInstant())) {
            if (t.isGap()) {
                gapEnds.add(t.getInstant().getEpochSecond());
                gaps.add(t);
            }
        }
        for (long s = first; s <= first + HORIZON_SECONDS; s++) {
            Instant i = Instant.ofEpochSecond(s);
            ZoneOffset offset = rules.getOffset(i);
            LocalDateTime local = LocalDateTime.ofEpochSecond(s, 0, offset);
            if (cron.matches(local) && rules.getValidOffsets(local).get(0).equals(offset)) {
                return i;
            }
            if (gapEnds.contains(s)) {
                for (ZoneOffsetTransition t : gaps) {
                    if (t.getInstant().getEpochSecond() != s) {
                        continue;
                    }
                    for (LocalDateTime l = t.getDateTimeBefore();
                            l.isBefore(t.getDateTimeAfter());
                            l = l.plusSeconds(1)) {
                        if (cron.matches(l)) {
                            return i;
                        }
                    }
                }
            }
        }
        return null;
    }

    private static Instant randomStart(Random random, ZoneId zone) {
        Instant base = Instant.ofEpochSecond(random.nextLong(0, 2_900_000_000L)); // 1970..2061
        if (random.nextBoolean()) {
            ZoneOffsetTransition t = zone.getRules().nextTransition(base);
            if (t != null) {
                int[] within = {600, 7_200, 86_400}; // just before, hours before, a day before
                base = t.getInstant().minusSeconds(random.nextInt(within[random.nextInt(within.length)]));
            }
        }
        return base.plusMillis(random.nextInt(3) == 0 ? 0 : random.nextInt(1000));
    }

    /**
     * An expression aimed at the local times around the next transition after {@code after} (often
     * inside its gap or its repeated hour), some fields widened at random; the reference still
     * decides what it should give.
     */
    private static String expressionNearATransition(Random random, ZoneId zone, Instant after) {
        ZoneOffsetTransition t = zone.getRules().nextTransition(after);
        if (t == null) {
            return randomExpression(random);
        }
        LocalDateTime from = t.isGap() ? t.getDateTimeBefore() : t.getDateTimeAfter();
        long span = Math.max(60, Math.abs(t.getDuration().getSeconds()));
        LocalDateTime local = from.plusSeconds(random.nextLong(-span / 4, span + span / 4));
        String second = random.nextInt(4) == 0 ? "*/" + (1 + random.nextInt(30)) : "" + local.getSecond();
        String minute = random.nextInt(4) == 0 ? "*" : "" + local.getMinute();
        String hour = random.nextInt(6) == 0 ? "*" : "" + local.getHour();
        return second + " " + minute + " " + hour + " * * *";
    }

    static String randomExpression(Random random) {
        return String.join(
                " ",
                field(random, 0, 59, 0.3, null),
                field(random, 0, 59, 0.3, null),
                field(random, 0, 23, 0.4, null),
                field(random, 1, 31, 0.7, null),
                field(
                        random,
                        1,
                        12,
                        0.75,
                        List.of("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")),
                field(random, 0, 7, 0.6, List.of("SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT")));
    }

    private static String field(Random random, int min, int max, double star, List<String> names) {
        if (random.nextDouble() < star) {
            return random.nextInt(4) == 0 ? "*/" + (1 + random.nextInt(Math.max(1, (max - min) / 3))) : "*";
        }
        int items = 1 + random.nextInt(3);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < items; i++) {
            int a = min + random.nextInt(max - min + 1);
            int b = a + random.nextInt(max - a + 1);
            String item =
                    switch (random.nextInt(4)) {
                        case 0 -> name(a, min, names, random);
                        case 1 -> name(a, min, names, random) + "-" + name(b, min, names, random);
                        case 2 -> a + "-" + b + "/" + (1 + random.nextInt(5));
                        default -> a + "/" + (1 + random.nextInt(10));
                    };
            out.add(item);
        }
        return String.join(",", out);
    }

    private static String name(int v, int min, List<String> names, Random random) {
        if (names != null && random.nextBoolean() && v - min < names.size() && (min == 1 || v < 7)) {
            String n = names.get(v - min);
            return random.nextBoolean() ? n : n.toLowerCase(java.util.Locale.ROOT);
        }
        return Integer.toString(v);
    }

    /** Fixed so that CI is repeatable; {@code -Dhourglass.seed=N} replays, {@code =random} explores. */
    private static long seed() {
        String property = System.getProperty("hourglass.seed");
        if (property == null) {
            return 0xC209_0000L;
        }
        return property.equals("random") ? new SplittableRandom().nextLong() : Long.parseLong(property);
    }
}
