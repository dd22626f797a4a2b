package dev.hourglass.redis;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * A node for {@link KillNodeTest}'s child JVM: claims up to {@code count} timers of queue "q", prints
 * "HANDLING id" for each and hangs in the handler until the test kills the JVM with SIGKILL.
 *
 * <p>Arguments: redis port, namespace, count, lease in ms.
 */
public final class HangingNodeMain {
    private HangingNodeMain() {}

    /**
     * Runs the node until killed.
     *
     * @param args port, namespace, count, lease ms
     * @throws InterruptedException never in practice: the JVM is killed
     */
    public static void main(String[] args) throws InterruptedException {
        int count = Integer.parseInt(args[2]);
        RedisTimers node = RedisTimers.builder()
                .redis("127.0.0.1", Integer.parseInt(args[0]))
                .namespace(args[1])
                .queues("q")
                .shards(2)
                .nodeId("child")
                .leaseDuration(Duration.ofMillis(Long.parseLong(args[3])))
                .maxInFlight(count) // all in flight forever: it never claims again
                .handlerThreads(count)
                .build();
        CountDownLatch never = new CountDownLatch(1);
        node.register("q", d -> {
            synchronized (HangingNodeMain.class) {
                System.out.println("HANDLING " + d.id() + " " + d.attempt());
                System.out.flush();
            }
            never.await();
        });
        never.await();
    }
}
