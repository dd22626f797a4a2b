package dev.hourglass.executor;

import static java.util.concurrent.TimeUnit.HOURS;
import static java.util.concurrent.TimeUnit.NANOSECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;

import dev.hourglass.executor.Script.Kind;
import dev.hourglass.executor.Script.Step;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Plays a {@link Script} on one executor and writes down, line by line, what each call returned or
 * threw, which one-shot tasks ran in each phase and in what order, how often each periodic task
 * ran, and the executor's state. Two executors that keep the same contract write the same lines.
 */
final class ScriptRunner {

    /** What the runner needs of an executor besides the executor itself. */
    interface Harness {
        ScheduledExecutorService executor();

        /** How long a unit of the script is. */
        long unitNanos();

        /** Lets time pass; a manual clock moves and settles, real time needs nothing. */
        void passUnits(int units) throws InterruptedException;

        /** Returns once what is due now has run; real time needs nothing (waits are on futures). */
        void settle() throws InterruptedException;
    }

    private static final long WAIT_SECONDS = 10;

    private final Script script;
    private final Harness harness;
    private final ScheduledExecutorService executor;
    private final List<String> lines = new ArrayList<>();
    private final List<String> ran = new CopyOnWriteArrayList<>();
    private final Map<Integer, Future<?>> futures = new TreeMap<>();
    private final Map<Integer, AtomicInteger> periodicRuns = new TreeMap<>();
    private boolean shut;
    private boolean stopped;

    ScriptRunner(Script script, Harness harness) {
        this.script = script;
        this.harness = harness;
        this.executor = harness.executor();
    }

    /**
     * Plays the script.
     *
     * @param terminated after each phase that follows a shutdown, whether the executor is
     *     terminated: written here if {@code record}, else what another run recorded, and where it
     *     said true this run waits for termination (on real time it comes a little after the last
     *     task)
     * @param record whether to record the answers or follow them
     * @return the transcript
     */
    List<String> run(List<Boolean> terminated, boolean record) throws InterruptedException {
        int answer = 0;
        for (int p = 0; p < script.phases.size(); p++) {
            List<Step> phase = script.phases.get(p);
            Gate gate = null;
            if (!shut) {
                gate = new Gate();
                executor.execute(gate);
                await(gate.started);
            }
            List<Future<?>> due = new ArrayList<>();
            int latest = 0;
            Future<?> barrier = null;
            for (Step step : phase) {
                boolean shutting = step.kind == Kind.SHUTDOWN || step.kind == Kind.SHUTDOWN_NOW;
                if (shutting && !shut) {
                    barrier = executor.schedule(() -> {}, latest * harness.unitNanos(), NANOSECONDS);
                }
                Future<?> made = play(step);
                if (made != null && step.delay != Script.FAR) {
                    latest = Math.max(latest, step.delay);
                    if (step.kind == Kind.PERIODIC) {
                        due.add(made);
                    }
                }
            }
            if (barrier == null && !shut) {
                barrier = executor.schedule(() -> {}, latest * harness.unitNanos(), NANOSECONDS);
            }
            if (gate != null) {
                gate.release.countDown();
            }
            harness.settle();
            if (!stopped) {
                harness.passUnits(Script.MAX_DELAY + 1);
            }
            if (!stopped) {
                if (barrier != null) {
                    due.add(barrier);
                    // Even when a shutdown cancelled it: real time reaches its deadline, the last of
                    // the phase, as the manual clock has.
                    while (((ScheduledFuture<?>) barrier).getDelay(NANOSECONDS) > 0) {
                        Thread.sleep(1);
                    }
                }
                for (Future<?> f : due) {
                    waitDone(f);
                }
            }
            lines.add("phase " + p + " ran " + ran);
            ran.clear();
            if (gate != null) {
                await(gate.ended);
                lines.add("phase " + p + " gate interrupted " + gate.interrupted);
            }
            lines.add("phase " + p + " periodic runs " + periodicRuns);
            if (shut) {
                boolean now;
                if (record) {
                    now = executor.isTerminated();
                    terminated.add(now);
                } else {
                    now = terminated.get(answer++)
                            ? executor.awaitTermination(WAIT_SECONDS, SECONDS)
                            : executor.isTerminated();
                }
                lines.add("phase " + p + " terminated " + now);
            }
        }
        lines.add("end: shutdown " + executor.isShutdown());
        lines.add("end: shutdownNow " + named(executor.shutdownNow()));
        lines.add("end: terminates " + executor.awaitTermination(WAIT_SECONDS, SECONDS));
        futures.forEach((id, f) -> lines.add("end: #" + id + " " + describe(f)));
        lines.add("end: periodic runs " + periodicRuns);
        return lines;
    }

    private Future<?> play(Step step) {
        String line = step.toString() + ": ";
        try {
            switch (step.kind) {
                case CANCEL:
                    line += withFuture(step.id, f -> "cancel " + f.cancel(step.interrupt) + ", " + describe(f));
                    break;
                case QUERY:
                    line += withFuture(step.id, ScriptRunner::describe);
                    break;
                case COMPARE:
                    line += withFuture(
                            step.id,
                            a -> withFuture(
                                    step.other,
                                    b -> "compareTo "
                                            + Integer.signum(
                                                    ((ScheduledFuture<?>) a).compareTo((ScheduledFuture<?>) b))));
                    break;
                case SHUTDOWN:
                    executor.shutdown();
                    shut = true;
                    line += "isShutdown " + executor.isShutdown();
                    break;
                case SHUTDOWN_NOW:
                    line += "returned " + named(executor.shutdownNow());
                    shut = true;
                    stopped = true;
                    break;
                default:
                    Future<?> made = submit(step);
                    lines.add(line + "accepted");
                    return made;
            }
        } catch (RejectedExecutionException e) {
            line += "rejected";
        }
        lines.add(line);
        return null;
    }

    private Future<?> submit(Step step) {
        long delay = step.delay == Script.FAR
                ? HOURS.toNanos(1) + SECONDS.toNanos(step.id)
                : step.delay * harness.unitNanos();
        int id = step.id;
        Runnable oneShot = () -> {
            ran.add("#" + id);
            if (step.fails) {
                throw new IllegalStateException("#" + id);
            }
        };
        Future<?> made;
        switch (step.kind) {
            case SCHEDULE_RUNNABLE:
                made = executor.schedule(oneShot, delay, NANOSECONDS);
                break;
            case SCHEDULE_CALLABLE:
                made = executor.schedule(() -> value(oneShot, id), delay, NANOSECONDS);
                break;
            case SUBMIT:
                made = executor.submit(() -> value(oneShot, id));
                break;
            case EXECUTE:
                executor.execute(oneShot);
                return null;
            default:
                made = periodic(step, delay);
        }
        futures.put(id, made);
        return made;
    }

    private Future<?> periodic(Step step, long delay) {
        AtomicInteger runs = new AtomicInteger();
        AtomicReference<Future<?>> self = new AtomicReference<>();
        Runnable task = () -> {
            if (runs.incrementAndGet() == step.runs) {
                if (step.fails) {
                    throw new IllegalStateException("periodic #" + step.id);
                }
                self.get().cancel(false);
            }
        };
        long period = step.period * harness.unitNanos();
        Future<?> made = step.fixedRate
                ? executor.scheduleAtFixedRate(task, delay, period, NANOSECONDS)
                : executor.scheduleWithFixedDelay(task, delay, period, NANOSECONDS);
        self.set(made); // before any run: the gate holds the executor
        periodicRuns.put(step.id, runs);
        return made;
    }

    private static String value(Runnable oneShot, int id) {
        oneShot.run();
        return "v" + id;
    }

    private String withFuture(int id, java.util.function.Function<Future<?>, String> what) {
        Future<?> f = futures.get(id);
        return f == null ? "no future #" + id : what.apply(f);
    }

    private static String describe(Future<?> f) {
        String outcome;
        try {
            outcome = String.valueOf(f.get(0, NANOSECONDS));
        } catch (TimeoutException e) {
            outcome = "not yet";
        } catch (CancellationException e) {
            outcome = "cancelled";
        } catch (ExecutionException e) {
            outcome = "failed " + e.getCause();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            outcome = "interrupted";
        }
        return "done " + f.isDone() + ", cancelled " + f.isCancelled() + ", get " + outcome + ", delay > 0 "
                + (((ScheduledFuture<?>) f).getDelay(NANOSECONDS) > 0);
    }

    /** The ids of the returned tasks that are futures the script holds, and a count of the others. */
    private String named(List<Runnable> tasks) {
        Map<Object, Integer> ids = new IdentityHashMap<>();
        futures.forEach((id, f) -> ids.put(f, id));
        List<Integer> named = new ArrayList<>();
        int others = 0;
        for (Runnable task : tasks) {
            Integer id = ids.get(task);
            if (id == null) {
                others++;
            } else {
                named.add(id);
            }
        }
        named.sort(null);
        return named + " and " + others + " others";
    }

    private static void waitDone(Future<?> f) throws InterruptedException {
        try {
            f.get(WAIT_SECONDS, SECONDS);
        } catch (ExecutionException | CancellationException e) {
            // done either way
        } catch (TimeoutException e) {
            // the transcript shows it: the future is not done
        }
    }

    private static void await(CountDownLatch latch) throws InterruptedException {
        if (!latch.await(WAIT_SECONDS, SECONDS)) {
            throw new AssertionError("waited " + WAIT_SECONDS + " s for the gate");
        }
    }

    /** Holds the executor's thread while a phase's calls are made. */
    private static final class Gate implements Runnable {
        final CountDownLatch started = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final CountDownLatch ended = new CountDownLatch(1);
        volatile boolean interrupted;

        @Override
        public void run() {
            started.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                interrupted = true;
            } finally {
                ended.countDown();
            }
        }
    }
}
