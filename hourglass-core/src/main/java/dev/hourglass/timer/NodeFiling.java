package dev.hourglass.timer;

import dev.hourglass.queue.NodeQueue;
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
    private Consumer<TimeoutNode> sink;
    private final Consumer<Object> deliver = node -> sink.accept((TimeoutNode) node);

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
        this.sink = sink;
        nodes.poll(now, deliver, Integer.MAX_VALUE);
    }

    @Override
    public void clear(Consumer<TimeoutNode> sink) {
        this.sink = sink;
        nodes.clear(deliver);
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
