package dev.hourglass.netty;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hourglass.timer.Timers;
import io.netty.util.HashedWheelTimer;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import io.netty.util.TimerTask;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.LongFunction;
import org.junit.jupiter.api.Test;

/**
 * One scripted scenario run on Netty's own {@link HashedWheelTimer} and on the adapter, comparing
 * what each call returned, what ran and what was told: outcomes, not timing, so that a busy machine
 * changes nothing (every wait is for an event, with a generous safety net).
 */
@org.junit.jupiter.api.Timeout(120)
class SideBySideTest {

    private static final long AWAIT_SECONDS = 20;
    private static final long NO_LIMIT = -1;

    private static Timer netty(long maxPending) {
        return new HashedWheelTimer(Executors.defaultThreadFactory(), 1, TimeUnit.MILLISECONDS, 512, false, maxPending);
    }

    private static Timer hourglass(long maxPending) {
        return NettyTimers.wrap(Timers.builder().tick(Duration.ofMillis(1)).startTimerThread(), maxPending);
    }

    @Test
    void theScriptEndsTheSameOnNettyAndOnTheAdapter() throws Exception {
        List<String> expected = script(SideBySideTest::netty);
        List<String> actual = script(SideBySideTest::hourglass);
        System.out.println("HashedWheelTimer: " + expected);
        assertThat(expected).last().as("the script ran to its end").isEqualTo("cancelled one told true");
        assertThat(actual).isEqualTo(expected);
    }

    /** A task that counts its runs and cancellations down and keeps what it was handed. */
    private static final class Probe implements TimerTask {
        final CountDownLatch ran = new CountDownLatch(1);
        final CountDownLatch cancelled = new CountDownLatch(1);
        final List<Timeout> handed = new CopyOnWriteArrayList<>();
        final List<Object> seen = new CopyOnWriteArrayList<>();
        private final Action action;

        /** What a probe does when it runs, before counting down. */
        interface Action {
            void act(Timeout self, List<Object> seen);
        }

        Probe() {
            this((self, seen) -> {});
        }

        Probe(Action action) {
            this.action = action;
        }

        @Override
        public void run(Timeout timeout) {
            handed.add(timeout);
            try {
                action.act(timeout, seen);
            } finally {
                ran.countDown();
            }
        }

        @Override
        public void cancelled(Timeout timeout) {
            handed.add(timeout);
            cancelled.countDown();
        }
    }

    private static boolean await(CountDownLatch latch) throws InterruptedException {
        return latch.await(AWAIT_SECONDS, TimeUnit.SECONDS);
    }

    private static String outcome(Runnable call) {
        try {
            call.run();
            return "returned";
        } catch (RuntimeException e) {
            return e.getClass().getSimpleName();
        }
    }

    private static List<String> script(LongFunction<Timer> make) throws Exception {
        List<String> out = new ArrayList<>();

        Timer timer = make.apply(NO_LIMIT);
        // a short timeout runs once, handed its own Timeout, and is expired afterwards
        Probe shortOne = new Probe();
        Timeout a = timer.newTimeout(shortOne, 30, TimeUnit.MILLISECONDS);
        out.add("a timer is ours " + (a.timer() == timer) + ", task is ours " + (a.task() == shortOne));
        out.add("a ran " + await(shortOne.ran) + ", handed itself " + (shortOne.handed.equals(List.of(a))));
        out.add("a expired " + a.isExpired() + ", cancelled " + a.isCancelled() + ", cancel " + a.cancel());

        // cancelling a pending timeout: true once, then false; the task hears of it with the timeout
        Probe cancelled = new Probe();
        Timeout b = timer.newTimeout(cancelled, 10, TimeUnit.MINUTES);
        out.add("b cancel " + b.cancel() + ", again " + b.cancel());
        out.add("b expired " + b.isExpired() + ", cancelled " + b.isCancelled());
        // Netty tells within a tick; an idle Hourglass timer at its next turn, which this forces
        Probe turn = new Probe();
        timer.newTimeout(turn, 0, TimeUnit.MILLISECONDS);
        out.add("a turn " + await(turn.ran));
        out.add("b told " + await(cancelled.cancelled) + " with itself " + cancelled.handed.equals(List.of(b)));

        // a task that throws: the timer goes on
        Probe throwing = new Probe((self, seen) -> {
            throw new IllegalStateException("a task's failure (expected by the test)");
        });
        timer.newTimeout(throwing, 0, TimeUnit.MILLISECONDS);
        Probe after = new Probe();
        timer.newTimeout(after, 5, TimeUnit.MILLISECONDS);
        out.add("after a throwing task the next ran " + await(after.ran));

        // inside its run: expired, not cancelled, cannot cancel itself; stop() refused
        Probe inside = new Probe((self, seen) -> {
            seen.add("expired " + self.isExpired());
            seen.add("cancelled " + self.isCancelled());
            seen.add("cancel " + self.cancel());
            seen.add("stop " + outcome(() -> self.timer().stop()));
        });
        timer.newTimeout(inside, 1, TimeUnit.MILLISECONDS);
        out.add("inside ran " + await(inside.ran) + ": " + inside.seen);

        // one task cancels another still pending
        Probe victim = new Probe();
        Timeout later = timer.newTimeout(victim, 10, TimeUnit.MINUTES);
        Probe killer = new Probe((self, seen) -> seen.add("cancel other " + later.cancel()));
        timer.newTimeout(killer, 1, TimeUnit.MILLISECONDS);
        out.add("killer ran " + await(killer.ran) + ": " + killer.seen);
        out.add("victim told " + await(victim.cancelled) + ", cancelled " + later.isCancelled());

        // bad arguments
        out.add("null task " + outcome(() -> timer.newTimeout(null, 1, TimeUnit.SECONDS)));
        out.add("null unit " + outcome(() -> timer.newTimeout(new Probe(), 1, null)));

        // stop: the pending ones come back cancelled, not expired, and are not told
        Probe left = new Probe();
        Timeout c = timer.newTimeout(left, 10, TimeUnit.MINUTES);
        Timeout d = timer.newTimeout(left, 1, TimeUnit.HOURS);
        Set<Timeout> unexpired = timer.stop();
        out.add("stop returned the pending " + unexpired.equals(Set.of(c, d)) + " of " + unexpired.size());
        for (Timeout t : List.of(c, d)) {
            out.add("left expired " + t.isExpired() + ", cancelled " + t.isCancelled() + ", cancel " + t.cancel());
        }
        out.add("left told " + left.cancelled.await(100, TimeUnit.MILLISECONDS));
        out.add("second stop " + timer.stop());
        out.add("newTimeout after stop " + outcome(() -> timer.newTimeout(new Probe(), 1, TimeUnit.SECONDS)));
        out.add("a cancel after stop " + a.cancel() + ", b " + b.cancel());

        // the pending limit
        Timer limited = make.apply(2);
        try {
            Probe one = new Probe();
            Timeout first = limited.newTimeout(one, 10, TimeUnit.MINUTES);
            limited.newTimeout(new Probe(), 10, TimeUnit.MINUTES);
            out.add("third over a limit of 2 " + outcome(() -> limited.newTimeout(new Probe(), 1, TimeUnit.SECONDS)));
            out.add("first cancel " + first.cancel());
            // Netty frees the place when its worker takes the cancel in, the adapter at once:
            // wait for a free place rather than guess when
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(AWAIT_SECONDS);
            String accepted = "never";
            while (System.nanoTime() - deadline < 0) {
                accepted = outcome(() -> limited.newTimeout(new Probe(), 1, TimeUnit.SECONDS));
                if (accepted.equals("returned")) {
                    break;
                }
                Thread.sleep(1); // polls a counter the timer thread updates: nothing to await
            }
            out.add("after the cancel a new one " + accepted);
            out.add("cancelled one told " + await(one.cancelled));
        } finally {
            limited.stop();
        }
        return out;
    }
}
