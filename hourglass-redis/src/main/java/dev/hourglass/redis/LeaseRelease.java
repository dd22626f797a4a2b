package dev.hourglass.redis;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;

/**
 * Makes due again the timers leased to a node that it does not run: after a failed pass, the
 * claims that ran in Redis but whose replies were lost; at close, also the deliveries still
 * running. One release script per shard, holding back the tokens the node still needs.
 *
 * <p>Complexity: one script per shard, O(log n) per timer released. Ordering: n/a. Thread-safety:
 * the claim loop's thread only.
 */
final class LeaseRelease {
    private static final System.Logger LOG = System.getLogger("dev.hourglass.redis");

    /** The channel argument of a release that announces nothing. */
    private static final byte[] NO_ANNOUNCEMENT = new byte[0];

    private final Servers servers;
    private final InFlight inFlight;
    private final DueShards shards;
    private final String nodeId;
    private final byte[] channel;

    /**
     * Creates the release of one node.
     *
     * @param servers the node's connections
     * @param inFlight its deliveries
     * @param shards the shards it claims on
     * @param nodeId the owner written on its claimed timers
     * @param channel the wake-up channel, told of timers released at close
     */
    LeaseRelease(Servers servers, InFlight inFlight, DueShards shards, String nodeId, byte[] channel) {
        this.servers = servers;
        this.inFlight = inFlight;
        this.shards = shards;
        this.nodeId = nodeId;
        this.channel = channel;
    }

    /**
     * Releases every timer leased to this node that it does not hold. Outcomes not yet sent are
     * held; deliveries running are held when {@code keepRunning} (read first, as a delivery queues
     * its outcome before it leaves). At close ({@code keepRunning} false) the released timers are
     * announced on the wake-up channel so that the other nodes claim them at once; after a failure
     * they are not (every node would then claim at once, past its backoff, while Redis is
     * struggling) and this node claims them next.
     *
     * @param keepRunning false at close, to release the deliveries still running too
     * @throws RuntimeException if Redis fails
     */
    void release(boolean keepRunning) {
        List<InFlight.Running> running = keepRunning ? inFlight.running() : List.of();
        List<InFlight.Outcome> pending = inFlight.pendingOutcomes();
        List<ScriptRunner.Call> calls = new ArrayList<>();
        for (DueShards.Shard shard : shards.all()) {
            ShardKeys s = shard.keys();
            List<byte[]> args = new ArrayList<>();
            args.add(ShardKeys.bytes(nodeId));
            args.add(keepRunning ? NO_ANNOUNCEMENT : channel);
            args.add(s.wakeTopic());
            running.stream()
                    .map(InFlight.Running::delivery)
                    .filter(d -> d.shard() == s)
                    .forEach(d -> args.add(d.token()));
            pending.stream()
                    .map(InFlight.Outcome::delivery)
                    .filter(d -> d.shard() == s)
                    .forEach(d -> args.add(d.token()));
            calls.add(new ScriptRunner.Call(Script.RELEASE, s.keys(), args));
        }
        long released = 0;
        for (Object o : ScriptRunner.runAll(servers, calls, WriteWait.NONE)) {
            released += (Long) o;
        }
        if (released > 0) {
            long n = released;
            LOG.log(
                    Level.INFO,
                    () -> "node " + nodeId + ": released " + n
                            + (keepRunning
                                    ? " claims whose replies were lost"
                                    : " timers of deliveries still running"));
        }
    }
}
