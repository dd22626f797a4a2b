package dev.hourglass.loop;

import dev.hourglass.time.NanoClock;
import dev.hourglass.timer.TimerDriver;
import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.function.Consumer;

/**
 * The I/O half of an {@link EventLoop}: its selector, the wait until the nearest deadline, the
 * dispatch of each ready key to its {@link EventLoop.IoHandler}, and the closing of every channel
 * when the loop ends. The timers and the loop's life cycle are the loop's.
 *
 * <p>Complexity: one select per turn and O(1) per ready key besides the handler's work.
 *
 * <p>Thread-safety: {@link #wakeup()} from any thread; the rest from the loop thread, or from the
 * thread that sets the loop up before it starts.
 */
final class Selection {

    static final System.Logger LOG = System.getLogger("dev.hourglass.loop");

    private final Selector selector;
    private final NanoClock clock;
    private final boolean clockFlows;
    private final Consumer<SelectionKey> onReady = Selection::ready;

    Selection(Selector selector, NanoClock clock) {
        this.selector = selector;
        this.clock = clock;
        this.clockFlows = clock.flows();
    }

    /** Wakes a select in progress, or makes the next one return at once. */
    void wakeup() {
        selector.wakeup();
    }

    /** Registers a channel after the loop checked who calls; see {@link EventLoop#register}. */
    SelectionKey register(SelectableChannel channel, int ops, EventLoop.IoHandler handler) throws IOException {
        channel.configureBlocking(false);
        try {
            return channel.register(selector, ops, handler);
        } catch (ClosedSelectorException e) {
            throw new IllegalStateException("event loop is closed", e);
        }
    }

    /** Waits for I/O until the nearest deadline, handling each ready key as the selector finds it. */
    void select(TimerDriver timers) throws IOException {
        // A stray interrupt (from a handler or task) would make every select return at once.
        Thread.interrupted();
        boolean idle = !timers.hasTimers();
        long deadline = idle ? 0 : timers.nextDeadline();
        long wait = idle ? 0 : deadline - clock.nanoTime();
        if ((idle || wait > 0) && timers.prepareToSleep(idle, deadline)) {
            // A clock that does not flow moves only by jumps, which wake the selector: no timeout.
            // Otherwise round up: waking a fraction of a millisecond early only costs an empty turn.
            long millis = idle || !clockFlows ? 0 : wait / 1_000_000 + (wait % 1_000_000 == 0 ? 0 : 1);
            selector.select(onReady, millis);
            timers.awake();
        } else {
            selector.selectNow(onReady);
        }
    }

    private static void ready(SelectionKey key) {
        if (!key.isValid()) {
            // Its channel was closed by a handler earlier in this turn.
            return;
        }
        try {
            ((EventLoop.IoHandler) key.attachment()).ready(key);
        } catch (Throwable e) {
            try {
                key.channel().close();
            } catch (IOException closeError) {
                e.addSuppressed(closeError);
            }
            LOG.log(System.Logger.Level.WARNING, "handler of " + key.channel() + " threw; channel closed", e);
        }
    }

    /** Closes every registered channel, then the selector; failures are logged, not thrown. */
    void closeAll() {
        for (SelectionKey key : selector.keys()) {
            closeLogged(key.channel());
        }
        closeLogged(selector);
    }

    private static void closeLogged(Closeable closeable) {
        try {
            closeable.close();
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "closing " + closeable + " failed", e);
        }
    }
}
