package dev.hourglass.timer;

import java.util.ArrayList;
import java.util.List;

/**
 * The intake's takes once a driver has stopped: the loop's last look, then each later hand-off's.
 * A cancel that won before the close reached its timeout may be handed over around the loop's
 * last look; whichever take finds it counts it, once, since a cancelled node is taken off the
 * intake once. A lock, taken on the close path only, orders the two kinds of take, so that a
 * hand-off either finds the last look taken and takes what waits itself, or leaves it to that
 * look.
 *
 * <p>Complexity: O(nodes taken). Thread-safety: {@link #takeByLoop} on the loop's thread, once;
 * {@link #takeByHandOff} from any thread.
 */
final class LastLook {

    private final Intake intake;
    private final Engine engine;

    /** Whether the loop took its last look; guarded by {@code this}. */
    private boolean taken;

    LastLook(Intake intake, Engine engine) {
        this.intake = intake;
        this.engine = engine;
    }

    /**
     * The loop's last look: cancels for the close what is still pending (into {@code left}),
     * counts the users' cancels and then tells their tasks, outside the lock (user code).
     */
    void takeByLoop(List<Timeout> left) {
        List<TimeoutNode> counted = new ArrayList<>();
        synchronized (this) {
            for (TimeoutNode node = intake.takeAll(); node != null; ) {
                TimeoutNode next = Intake.next(node);
                if (engine.takeInLast(node, left)) {
                    counted.add(node);
                }
                node = next;
            }
            taken = true;
        }
        counted.forEach(engine::tellCancelled);
    }

    /**
     * A hand-off after the loop's last look, whose own timeout is not pending (else it cancels
     * that itself): takes what waits and counts the users' cancels among it; nobody tells their
     * tasks. A timeout still pending goes back onto the intake: its own hand-off, which came after
     * the last look too, will cancel it, and a user who cancels it first pushes nothing (it is
     * queued), so the next take must find it there.
     */
    void takeByHandOff() {
        synchronized (this) {
            if (!taken) {
                return;
            }
            for (TimeoutNode node = intake.takeAll(); node != null; ) {
                TimeoutNode next = Intake.next(node);
                if (TimeoutNode.isFinal(node.state())) {
                    engine.countLateCancel(node);
                } else {
                    intake.push(node);
                }
                node = next;
            }
        }
    }
}
