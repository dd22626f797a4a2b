package dev.hourglass.timer;

import dev.hourglass.queue.NodeQueue;
import dev.hourglass.queue.TimerNode;
import dev.hourglass.queue.TimerQueue;
import java.util.function.Consumer;

/**
 * Files timeouts by linking them into the queue: the timeout is the node, so filing allocates
 * nothing and the deadline is stored once.
 *
 * <p>Complexity: the structure's. Thread-safety: none; the driver's thread only.
 */
final class NodeFiling implements Filing {

    private final NodeQueue nodes;

    NodeFiling(NodeQueue nodes) {
        this.nodes = nodes;
    }

    @Override
    public void file(TimeoutNode node) {
        nodes.insert(node);
    }

    @Override
    public void refile(TimeoutNode node) {
        nodes.move(node);
    }

    @Override
    public boolean unfile(TimeoutNode node) {
        return nodes.remove(node);
    }

    @Override
    public boolean isFiled(TimeoutNode node) {
        return node.isPending();
    }

    @Override
    public void poll(long now, Consumer<TimeoutNode> sink) {
        nodes.poll(now, asNodes(sink), Integer.MAX_VALUE);
    }

    @Override
    public void clear(Consumer<TimeoutNode> sink) {
        nodes.clear(asNodes(sink));
    }

    // The queue holds nothing but timeouts (file() is the only way in), so the sink is handed
    // over as it is, without a wrapper that casts each node: one call less per fired timeout.
    @SuppressWarnings("unchecked")
    private static Consumer<TimerNode> asNodes(Consumer<TimeoutNode> sink) {
        return (Consumer<TimerNode>) (Consumer<?>) sink;
    }

    @Override
    public long nextWork() {
        return nodes.nextWork();
    }

    @Override
    public TimerQueue<?> queue() {
        return nodes.queue();
    }
}
