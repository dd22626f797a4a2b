package dev.hourglass.redis;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Finding 5: an id with an unpaired surrogate was encoded as '?' and merged with the timer whose id
 * is "?". Such ids are now refused; every valid id is stored and delivered exactly.
 */
class IdsTest {
    @Test
    void idsAreExactOrRefused() throws InterruptedException {
        String big = "x".repeat(1 << 20) + "\uD83D\uDE00";
        List<String> ids = List.of("?", "a\u0000b", "a", "ab", "\u0000", "\uD83D\uDE00", "\uFFFF", big);
        try (RedisServerProcess server = RedisServerProcess.start();
                RedisTimers node = RedisTimers.builder()
                        .redis("127.0.0.1", server.port())
                        .namespace("ids")
                        .queues("q")
                        .shards(4)
                        .fallbackPoll(Duration.ofMillis(200))
                        .build()) {
            for (String bad : List.of("\uD800", "a\uDC00", "\uDE00\uD83D", "x\uD83D")) {
                assertThatThrownBy(() -> node.schedule("q", bad, Duration.ZERO, "p".getBytes(UTF_8)))
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageStartingWith("id is not valid UTF-16: unpaired surrogate \\u");
                assertThatThrownBy(() -> node.lookup("q", bad)).isInstanceOf(IllegalArgumentException.class);
                assertThatThrownBy(() -> node.cancel("q", bad)).isInstanceOf(IllegalArgumentException.class);
            }
            assertThatThrownBy(() -> RedisTimers.builder().queues("q\uD800"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("queue is not valid UTF-16");
            for (String id : ids) {
                node.schedule("q", id, Duration.ofMillis(300), id.getBytes(UTF_8));
            }
            for (String id : ids) {
                assertThat(node.lookup("q", id))
                        .as(id.length() > 20 ? "the 1 MB id" : id)
                        .hasValueSatisfying(s -> {
                            assertThat(s.id()).isEqualTo(id);
                            assertThat(new String(s.payload(), UTF_8)).isEqualTo(id);
                        });
            }
            Recorder recorder = new Recorder();
            node.register("q", recorder);
            assertThat(recorder.awaitIds(ids.size(), Duration.ofSeconds(20))).isTrue();
            assertThat(recorder.byId().keySet()).containsExactlyInAnyOrderElementsOf(ids);
            for (String id : ids) {
                assertThat(recorder.of(id)).hasSize(1).first().satisfies(seen -> assertThat(seen.payload())
                        .isEqualTo(id));
            }
        }
    }
}
