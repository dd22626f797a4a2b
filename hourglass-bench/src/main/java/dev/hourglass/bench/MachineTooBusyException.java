package dev.hourglass.bench;

/**
 * An iteration whose timers could not all be set up before the first of them was due: the machine
 * was too busy (another process, a GC, a cold start), and measuring on would count timers that
 * fired during the setup. Nothing is wrong with the benchmark; running it again may succeed.
 */
public final class MachineTooBusyException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    /**
     * Makes the exception.
     *
     * @param what what was set up, e.g. "scheduling 100 timers"
     * @param tookMillis how long it took
     * @param leftMillis how long was left before the first deadline
     * @param neededMillis the least that must be left
     */
    public MachineTooBusyException(String what, long tookMillis, long leftMillis, long neededMillis) {
        super(what + " took " + tookMillis + " ms, leaving " + leftMillis + " ms before the first deadline where "
                + neededMillis + " ms are needed: the machine is too busy, try again");
    }
}
