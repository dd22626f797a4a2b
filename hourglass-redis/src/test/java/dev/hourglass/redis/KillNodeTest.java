package dev.hourglass.redis;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A node killed with kill -9 in the middle of handling loses nothing: another node fires its timers. */
class KillNodeTest {
    private static final int TIMERS = 20;
    private static final long LEASE_MILLIS = 1_000;

    @Test
    void timersOfANodeKilledMidHandlingFireOnAnotherNodeAfterTheLease() throws Exception {
        try (RedisServerProcess server = RedisServerProcess.start()) {
            List<TimerRequest> requests = new ArrayList<>();
            for (int i = 0; i < TIMERS; i++) {
                requests.add(TimerRequest.after("k" + i, Duration.ZERO, ("p" + i).getBytes(UTF_8)));
            }
            try (RedisTimers producer = node(server, "producer")) {
                producer.scheduleAll("q", requests);
            }

            Process child = new ProcessBuilder(
                            Path.of(System.getProperty("java.home"), "bin", "java")
                                    .toString(),
                            "-cp",
                            System.getProperty("java.class.path"),
                            HangingNodeMain.class.getName(),
                            Integer.toString(server.port()),
                            "kill",
                            Integer.toString(TIMERS),
                            Long.toString(LEASE_MILLIS))
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            Set<String> handling = ConcurrentHashMap.newKeySet();
            CountDownLatch allHandling = new CountDownLatch(1);
            Thread reader = new Thread(() -> {
                try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(), UTF_8))) {
                    for (String line; (line = in.readLine()) != null; ) {
                        if (line.startsWith("HANDLING ")
                                && handling.add(line.split(" ")[1])
                                && handling.size() == TIMERS) {
                            allHandling.countDown();
                        }
                    }
                } catch (java.io.IOException e) {
                    // the child was killed
                }
            });
            reader.start();
            try {
                assertThat(allHandling.await(60, TimeUnit.SECONDS))
                        .as("the child is handling all %d timers (it saw %s)", TIMERS, handling)
                        .isTrue();
            } finally {
                child.destroyForcibly(); // SIGKILL on Linux: no shutdown hook, no ack, no cleanup
                assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
            }
            reader.join(10_000);

            Recorder recorder = new Recorder();
            try (RedisTimers survivor = node(server, "survivor")) {
                TimerSnapshot held = survivor.lookup("q", "k0").orElseThrow();
                assertThat(held.owner()).contains("child");
                survivor.register("q", recorder);
                assertThat(recorder.awaitIds(TIMERS, Duration.ofSeconds(30))).isTrue();
                assertThat(Recorder.eventually(
                                () -> {
                                    for (int i = 0; i < TIMERS; i++) {
                                        if (survivor.lookup("q", "k" + i).isPresent()) {
                                            return false;
                                        }
                                    }
                                    return true;
                                },
                                Duration.ofSeconds(30)))
                        .isTrue();
            }
            for (int i = 0; i < TIMERS; i++) {
                List<Recorder.Seen> seen = recorder.of("k" + i);
                assertThat(seen).as("deliveries of k%d", i).hasSize(1);
                assertThat(seen.get(0).attempt()).isEqualTo(2);
                assertThat(seen.get(0).payload()).isEqualTo("p" + i);
            }
        }
    }

    /**
     * A node of the test JVM. Its lease is longer than the child's: the subject is the child's
     * expired lease, and a 1 s lease of the survivor's own deliveries made the test fail when the
     * busy machine stalled the survivor between a claim and its ack for more than a second.
     */
    private static RedisTimers node(RedisServerProcess server, String id) {
        return RedisTimers.builder()
                .redis("127.0.0.1", server.port())
                .namespace("kill")
                .queues("q")
                .shards(2)
                .nodeId(id)
                .leaseDuration(Duration.ofMillis(5 * LEASE_MILLIS))
                .fallbackPoll(Duration.ofMillis(200))
                .build();
    }
}
