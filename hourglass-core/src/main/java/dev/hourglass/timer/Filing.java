package dev.hourglass.timer;

import dev.hourglass.queue.NodeQueue;
import dev.hourglass.queue.TimerQueue;
import java.util.function.Consumer;

/**
 * Where the engine keeps its timeouts: a queue that links them ({@link NodeFiling}) or one that
 * wraps each in an entry of its own ({@link HandleFiling}). Either way a timeout is filed at or
 * before its deadline, and the engine files it again when it is delivered early.
 *
 * <p>Thread-safety: none; the driver's thread only.
 */
interface Filing {

    /** Files a timeout that is not filed, at its deadline (or earlier). */
    void file(TimeoutNode node);

    /** Files a filed timeout again after its deadline moved earlier. */
    void refile(TimeoutNode node);

    /** Unfiles a timeout; false if it was not filed. */
    boolean unfile(TimeoutNode node);

    boolean isFiled(TimeoutNode node);

    /** Delivers the timeouts whose place is due at {@code now}; each is unfiled first. */
    void poll(long now, Consumer<TimeoutNode> sink);

    /** Unfiles everything, handing each timeout to {@code sink}. */
    void clear(Consumer<TimeoutNode> sink);

    /**
     * When the driver must poll next: at or before the next delivery, found without scanning
     * timers where the structure allows it.
     */
    long nextWork();

    /** The queue's queries: size, next deadline. */
    TimerQueue<?> queue();

    /** Makes the filing for {@code queue}: linked if the structure allows it. */
    @SuppressWarnings("unchecked")
    static Filing of(TimerQueue<?> queue) {
        return NodeQueue.supports(queue)
                ? new NodeFiling(NodeQueue.of(queue))
                : new HandleFiling((TimerQueue<TimeoutNode>) queue);
    }
}
