package dev.hourglass.executor;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A scenario of calls on a {@link java.util.concurrent.ScheduledExecutorService}, generated from a
 * seed, that {@link ScriptRunner} plays on any executor. Time is counted in units; {@link #FAR} is
 * a delay no test reaches.
 *
 * <p>Made so that the JDK's executor on real time gives one answer however busy the machine is:
 * within a phase the tasks are submitted in order of delay, so their deadlines are in that order
 * whatever time each submission takes (equal delays keep submission order); every task due in a
 * phase has a delay of at most {@link #MAX_DELAY} units and a periodic task stops itself after a
 * few runs, so a phase ends when its last task has; and nothing runs while a phase's calls are made
 * (a gate task holds the executor's one thread).
 */
final class Script {

    static final int FAR = -1;
    static final int MAX_DELAY = 3;

    /** What a step does. */
    enum Kind {
        SCHEDULE_RUNNABLE,
        SCHEDULE_CALLABLE,
        SUBMIT,
        EXECUTE,
        PERIODIC,
        CANCEL,
        QUERY,
        COMPARE,
        SHUTDOWN,
        SHUTDOWN_NOW
    }

    /** One call: the task it makes or targets, and its parameters. */
    static final class Step {
        final Kind kind;
        int id;
        int other;
        int delay;
        int period;
        int runs;
        boolean fixedRate;
        boolean fails;
        boolean interrupt;

        Step(Kind kind, int id) {
            this.kind = kind;
            this.id = id;
        }

        boolean makesTask() {
            return kind.ordinal() <= Kind.PERIODIC.ordinal();
        }

        @Override
        public String toString() {
            return kind + "#" + id + (makesTask() ? " delay " + (delay == FAR ? "far" : delay) : "")
                    + (kind == Kind.PERIODIC ? " period " + period + " runs " + runs : "")
                    + (kind == Kind.COMPARE ? " with #" + other : "");
        }
    }

    final long seed;
    final boolean executeDelayedAfterShutdown;
    final boolean continuePeriodicAfterShutdown;
    final List<List<Step>> phases = new ArrayList<>();

    private final SplittableRandom random;
    private int nextId;

    Script(long seed) {
        this.seed = seed;
        this.random = new SplittableRandom(seed);
        this.executeDelayedAfterShutdown = random.nextInt(3) > 0;
        this.continuePeriodicAfterShutdown = random.nextInt(3) == 0;
        int count = 2 + random.nextInt(3);
        boolean shut = false;
        for (int p = 0; p < count; p++) {
            List<Step> phase = shut ? afterShutdown() : running(p > 0);
            shut |= phase.stream().anyMatch(s -> s.kind == Kind.SHUTDOWN || s.kind == Kind.SHUTDOWN_NOW);
            phases.add(phase);
        }
    }

    private List<Step> running(boolean mayShutDown) {
        List<Step> made = new ArrayList<>();
        for (int n = 2 + random.nextInt(5); n > 0; n--) {
            made.add(newTask());
        }
        // By delay, far ones last in the order they were made, so deadlines follow submission.
        made.sort(Comparator.comparingInt((Step s) -> s.delay == FAR ? Integer.MAX_VALUE : s.delay));
        List<Step> phase = new ArrayList<>();
        int firstOfPhase = nextId;
        for (Step task : made) {
            task.id = nextId++;
            phase.add(task);
            if (random.nextInt(3) == 0) {
                phase.add(aboutATask(task.id, firstOfPhase));
            }
        }
        int end = random.nextInt(10);
        if (mayShutDown && end < 4) {
            phase.add(new Step(end < 3 ? Kind.SHUTDOWN : Kind.SHUTDOWN_NOW, -1));
            phase.add(aboutATask(nextId - 1, firstOfPhase));
        }
        return phase;
    }

    private List<Step> afterShutdown() {
        List<Step> phase = new ArrayList<>();
        Step refused = newTask();
        refused.id = nextId++;
        phase.add(refused);
        for (int n = 1 + random.nextInt(3); n > 0; n--) {
            phase.add(aboutATask(nextId - 1, nextId));
        }
        if (random.nextBoolean()) {
            phase.add(new Step(Kind.SHUTDOWN_NOW, -1));
        }
        return phase;
    }

    private Step newTask() {
        Kind kind = Kind.values()[random.nextInt(Kind.PERIODIC.ordinal() + 1)];
        Step step = new Step(kind, -1); // numbered once in submission order
        boolean now = kind == Kind.SUBMIT || kind == Kind.EXECUTE;
        step.delay = now ? 0 : random.nextInt(5) == 0 ? FAR : random.nextInt(MAX_DELAY + 1);
        step.fails = random.nextInt(4) == 0;
        if (kind == Kind.PERIODIC) {
            step.fixedRate = random.nextBoolean();
            step.period = 1 + random.nextInt(2);
            int room = step.delay == FAR ? MAX_DELAY : MAX_DELAY - step.delay;
            step.runs = 1 + random.nextInt(room / step.period + 1);
        }
        return step;
    }

    /** A cancel, a query or a comparison of tasks made so far; compared only within this phase. */
    private Step aboutATask(int newest, int firstOfPhase) {
        int target = random.nextInt(newest + 1);
        int pick = random.nextInt(5);
        if (pick < 2) {
            Step cancel = new Step(Kind.CANCEL, target);
            cancel.interrupt = random.nextBoolean();
            return cancel;
        }
        if (pick == 4 && newest > firstOfPhase) {
            Step compare = new Step(Kind.COMPARE, firstOfPhase + random.nextInt(newest - firstOfPhase + 1));
            compare.other = firstOfPhase + random.nextInt(newest - firstOfPhase + 1);
            return compare;
        }
        return new Step(Kind.QUERY, target);
    }

    int tasks() {
        return nextId;
    }

    @Override
    public String toString() {
        return "seed " + seed + " (replay with -Dhourglass.seed=" + seed + "), executeDelayedAfterShutdown "
                + executeDelayedAfterShutdown + ", continuePeriodicAfterShutdown " + continuePeriodicAfterShutdown
                + ", phases " + phases;
    }
}
