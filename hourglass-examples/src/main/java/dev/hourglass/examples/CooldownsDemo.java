package dev.hourglass.examples;

import dev.hourglass.patterns.CooldownResult;
import dev.hourglass.patterns.Cooldowns;
import dev.hourglass.patterns.Countdown;
import dev.hourglass.time.NanoClock;
import dev.hourglass.timer.Timer;
import dev.hourglass.timer.Timers;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A round of a game in the terminal: three abilities with cooldown bars and a round countdown,
 * redrawn ten times a second. Type 1, 2 or 3 and Enter to use an ability, r to reset them, q to
 * quit; {@code --auto} plays by itself. In a terminal it redraws in place with ANSI escapes;
 * otherwise (piped, or in a test) it prints a status line each second and each event as it happens.
 *
 * <p>Everything that prints runs on the timer's thread: the countdown's tick draws a frame, the
 * cooldowns' listener queues an event for it.
 */
final class CooldownsDemo {

    /** The options, after {@code usage: ./hourglass }. */
    static final String USAGE = "cooldowns [--seconds S] [--auto]\n"
            + "  a game round of S seconds (default 30): abilities with cooldown bars and a countdown;\n"
            + "  type 1, 2 or 3 and Enter to use an ability, r to reset, q to quit; --auto plays by itself";

    private static final Duration FRAME = Duration.ofMillis(100);
    private static final int BAR = 24;
    private static final String PLAYER = "you";
    private static final String ESC = "\u001b[";

    private final PrintStream out;
    private final boolean ansi;
    private final boolean auto;
    private final NanoClock clock = NanoClock.system();
    private final Timer timer = Timers.builder().startTimerThread();
    private final Cooldowns<String> cooldowns;
    private final List<String> abilities;
    private final ConcurrentLinkedQueue<String> keys = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<String> recharged = new ConcurrentLinkedQueue<>();
    private final ArrayDeque<String> events = new ArrayDeque<>();
    private final CountDownLatch done = new CountDownLatch(1);
    private Countdown round;
    private long lengthNanos;
    private long startNanos;
    private int uses;
    private int refusals;
    private int recharges;
    private long frames;

    private CooldownsDemo(PrintStream out, boolean ansi, boolean auto) {
        this.out = out;
        this.ansi = ansi;
        this.auto = auto;
        this.cooldowns = Cooldowns.<String>builder(timer, clock)
                .ability("Fireball", Duration.ofSeconds(3), 2)
                .ability("Dash", Duration.ofSeconds(1))
                .ability("Heal", Duration.ofSeconds(8))
                .listener((player, ability) -> recharged.add(ability))
                .build();
        this.abilities = cooldowns.abilities();
    }

    static int run(String[] args, InputStream in, PrintStream out, PrintStream err, boolean ansi) {
        double seconds = 30;
        boolean auto = false;
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            if (option.equals("--auto")) {
                auto = true;
            } else if (option.equals("--seconds")) {
                if (i + 1 >= args.length) {
                    err.println("option --seconds needs a value");
                    return Command.BAD_USAGE;
                }
                String value = args[++i];
                try {
                    seconds = Double.parseDouble(value);
                } catch (NumberFormatException e) {
                    err.println("--seconds is not a number: " + value);
                    return Command.BAD_USAGE;
                }
                if (!(seconds > 0 && seconds <= 86_400)) {
                    err.println("--seconds must be more than 0 and at most 86400: " + value);
                    return Command.BAD_USAGE;
                }
            } else {
                err.println((option.startsWith("-") ? "unknown option: " : "unexpected argument: ") + option);
                return Command.BAD_USAGE;
            }
        }
        CooldownsDemo demo = new CooldownsDemo(out, ansi, auto);
        try {
            demo.play(in, Duration.ofNanos((long) (seconds * 1e9)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        } finally {
            demo.cooldowns.close();
            demo.timer.close();
        }
        return 0;
    }

    private void play(InputStream in, Duration length) throws InterruptedException {
        Thread reader = new Thread(() -> readKeys(in), "cooldowns-demo-keys");
        reader.setDaemon(true);
        reader.start();
        if (ansi) {
            out.print(ESC + "?25l" + ESC + "2J");
        }
        out.println(
                auto
                        ? "Hourglass cooldowns: playing by itself"
                        : "Hourglass cooldowns: type 1, 2 or 3 and Enter"
                                + " to use an ability, r to reset, q to quit");
        synchronized (this) {
            lengthNanos = length.toNanos();
            startNanos = clock.nanoTime();
            round = Countdown.builder(timer, clock)
                    .duration(length)
                    .interval(FRAME)
                    .onTick((tick, due) -> frame(tick))
                    .onComplete(this::finish)
                    .start();
        }
        done.await();
        synchronized (this) {
            round.cancel();
            if (ansi) {
                out.print(ESC + "?25h");
            }
            out.printf(
                    Locale.ROOT,
                    "round over after %.1f s: %d uses, %d refused, %d recharges%n",
                    (clock.nanoTime() - startNanos) / 1e9,
                    uses,
                    refusals,
                    recharges);
            out.flush();
        }
    }

    private void readKeys(InputStream in) {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                for (char key : line.trim().toCharArray()) {
                    keys.add(String.valueOf(key));
                }
            }
        } catch (IOException e) {
            keys.add("input closed: " + e.getMessage());
        }
    }

    private synchronized void frame(long tick) {
        frames = tick;
        for (String key = keys.poll(); key != null; key = keys.poll()) {
            press(key);
        }
        if (auto && tick % 4 == 0) {
            press(String.valueOf(1 + (tick / 4) % abilities.size()));
        }
        for (String ability = recharged.poll(); ability != null; ability = recharged.poll()) {
            recharges++;
            event(ability + " charge ready (" + charges(ability) + ")");
        }
        if (ansi) {
            draw();
        } else if (tick % 10 == 0) {
            out.println(statusLine());
        }
    }

    private synchronized void finish() {
        frame(frames + 1);
        done.countDown();
    }

    private void press(String key) {
        switch (key) {
            case "q":
                event("quit");
                done.countDown();
                return;
            case "r":
                for (String ability : abilities) {
                    cooldowns.reset(PLAYER, ability);
                }
                event("reset: every ability ready");
                return;
            default:
                int index = key.length() == 1 ? key.charAt(0) - '1' : -1;
                if (index < 0 || index >= abilities.size()) {
                    event("unknown key: " + key + " (1, 2, 3, r or q)");
                    return;
                }
                String ability = abilities.get(index);
                CooldownResult result = cooldowns.tryUse(PLAYER, ability);
                if (result.used()) {
                    uses++;
                    event(ability + " used (" + charges(ability) + ")");
                } else {
                    refusals++;
                    event(ability + " not ready: " + seconds(result.remainingNanos()) + " s");
                }
        }
    }

    private String charges(String ability) {
        return cooldowns.charges(PLAYER, ability) + "/" + cooldowns.maxCharges(ability) + " charges";
    }

    private void event(String text) {
        String line = String.format(Locale.ROOT, "%6.1f s  %s", (clock.nanoTime() - startNanos) / 1e9, text);
        if (ansi) {
            events.addFirst(line);
            while (events.size() > 6) {
                events.removeLast();
            }
        } else {
            out.println(line);
        }
    }

    private void draw() {
        StringBuilder screen = new StringBuilder(1024).append(ESC).append('H');
        long left = round.remaining().toNanos();
        line(
                screen,
                ESC + "1mHourglass cooldowns" + ESC + "0m"
                        + (auto ? "  (auto)" : "  (1/2/3 + Enter: use, r: reset, q: quit)"));
        line(screen, "");
        line(screen, String.format(Locale.ROOT, "round  %s %5.1f s left", bar(left, lengthNanos, false), left / 1e9));
        line(screen, "");
        for (int i = 0; i < abilities.size(); i++) {
            String ability = abilities.get(i);
            long cooldown = cooldowns.cooldown(ability).toNanos();
            long remaining = cooldowns.remaining(PLAYER, ability).toNanos();
            int charges = cooldowns.charges(PLAYER, ability);
            int max = cooldowns.maxCharges(ability);
            String pips = "o".repeat(charges) + ".".repeat(max - charges);
            String state = remaining == 0
                    ? ESC + "32mREADY" + ESC + "0m"
                    : (charges > 0 ? ESC + "32m" : ESC + "33m") + seconds(remaining) + " s" + ESC + "0m";
            line(
                    screen,
                    String.format(
                            Locale.ROOT,
                            "[%d] %-9s %s  %-3s %s",
                            i + 1,
                            ability,
                            bar(cooldown - remaining, cooldown, remaining == 0),
                            pips,
                            state));
        }
        line(screen, "");
        line(screen, "events (newest first):");
        for (String event : events) {
            line(screen, event);
        }
        screen.append(ESC).append('J');
        out.print(screen);
        out.flush();
    }

    private static void line(StringBuilder screen, String text) {
        screen.append(text).append(ESC).append("K\n");
    }

    private static String bar(long part, long whole, boolean full) {
        int filled = full ? BAR : (int) Math.min(BAR, Math.max(0, part * BAR / whole));
        return "[" + "#".repeat(filled) + "-".repeat(BAR - filled) + "]";
    }

    private String statusLine() {
        StringBuilder line = new StringBuilder(String.format(
                Locale.ROOT,
                "%6.1f s  round %5.1f s left |",
                (clock.nanoTime() - startNanos) / 1e9,
                round.remaining().toNanos() / 1e9));
        for (String ability : abilities) {
            long remaining = cooldowns.remaining(PLAYER, ability).toNanos();
            line.append(' ')
                    .append(ability)
                    .append(' ')
                    .append(cooldowns.charges(PLAYER, ability))
                    .append('/')
                    .append(cooldowns.maxCharges(ability))
                    .append(remaining == 0 ? " READY" : " " + seconds(remaining) + " s")
                    .append(" |");
        }
        return line.toString();
    }

    private static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.1f", TimeUnit.NANOSECONDS.toMillis(nanos) / 1e3);
    }
}
