package dev.hourglass.examples.heartbeat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hourglass.examples.heartbeat.LineDecoder.Line;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class HeartbeatProtocolTest {

    private static List<Line> feed(LineDecoder decoder, String... chunks) {
        List<Line> lines = new ArrayList<>();
        for (String chunk : chunks) {
            ByteBuffer bytes = ByteBuffer.wrap(chunk.getBytes(StandardCharsets.US_ASCII));
            while (bytes.hasRemaining()) {
                // Like a socket read: as much as fits, then decode.
                ByteBuffer into = decoder.buffer();
                int n = Math.min(into.remaining(), bytes.remaining());
                into.put(bytes.slice().limit(n));
                bytes.position(bytes.position() + n);
                for (Line line = decoder.next(); line != null; line = decoder.next()) {
                    lines.add(line);
                }
            }
        }
        return lines;
    }

    @Test
    void classifiesLines() {
        assertThat(feed(new LineDecoder(64), "PING\nPING\r\n\nping\nPINGS\nPIN\nHELLO WORLD\n"))
                .containsExactly(
                        Line.PING, Line.PING, Line.BLANK, Line.UNKNOWN, Line.UNKNOWN, Line.UNKNOWN, Line.UNKNOWN);
    }

    @Test
    void joinsPartialLines() {
        LineDecoder decoder = new LineDecoder(64);
        assertThat(feed(decoder, "PI")).isEmpty();
        assertThat(feed(decoder, "N", "G")).isEmpty();
        assertThat(feed(decoder, "\nPING\nP")).containsExactly(Line.PING, Line.PING);
        assertThat(feed(decoder, "ING\r", "\n")).containsExactly(Line.PING);
    }

    @Test
    void reportsAnOverlongLineOnceAtItsEndAndRecovers() {
        LineDecoder decoder = new LineDecoder(8);
        assertThat(feed(decoder, "x".repeat(100))).isEmpty();
        assertThat(feed(decoder, "y".repeat(50) + "\nPING\n")).containsExactly(Line.TOO_LONG, Line.PING);
        // Exactly the capacity with its newline fits.
        assertThat(feed(decoder, "1234567\n")).containsExactly(Line.UNKNOWN);
        assertThat(feed(decoder, "12345678\n")).containsExactly(Line.TOO_LONG);
    }

    @Test
    void refusesATinyDecoder() {
        assertThatThrownBy(() -> new LineDecoder(7))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("capacity must be at least 8: 7");
    }

    /** A socket that takes at most {@code perWrite} bytes per write, and nothing while blocked. */
    private static final class TrickleChannel implements WritableByteChannel {
        final ByteArrayOutputStream written = new ByteArrayOutputStream();
        int perWrite;
        int budget = Integer.MAX_VALUE;

        TrickleChannel(int perWrite) {
            this.perWrite = perWrite;
        }

        @Override
        public int write(ByteBuffer src) {
            int n = Math.min(Math.min(perWrite, budget), src.remaining());
            budget -= n;
            for (int i = 0; i < n; i++) {
                written.write(src.get());
            }
            return n;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {}

        String text() {
            return written.toString(StandardCharsets.US_ASCII);
        }
    }

    @Test
    void keepsWhatASocketDidNotTakeInOrder() throws Exception {
        Outbox outbox = new Outbox(16);
        TrickleChannel channel = new TrickleChannel(0);
        outbox.append("PONG\n".getBytes(StandardCharsets.US_ASCII));
        outbox.append("PONG\n".getBytes(StandardCharsets.US_ASCII));
        assertThat(outbox.flush(channel)).isFalse();
        assertThat(outbox.isEmpty()).isFalse();
        assertThat(outbox.room()).isEqualTo(6);
        channel.perWrite = 3;
        outbox.append("ERR\n".getBytes(StandardCharsets.US_ASCII));
        // Three bytes per write call, until the 14 bytes are out.
        assertThat(outbox.flush(channel)).isTrue();
        assertThat(channel.text()).isEqualTo("PONG\nPONG\nERR\n");
        assertThat(outbox.isEmpty()).isTrue();
        assertThat(outbox.room()).isEqualTo(16);
    }

    @Test
    void partialWriteLeavesTheRestForTheNextFlush() throws Exception {
        Outbox outbox = new Outbox(16);
        TrickleChannel channel = new TrickleChannel(100);
        channel.budget = 2; // the socket's send buffer fills after two bytes
        outbox.append("PONG\n".getBytes(StandardCharsets.US_ASCII));
        assertThat(outbox.flush(channel)).isFalse();
        assertThat(channel.text()).isEqualTo("PO");
        assertThat(outbox.room()).isEqualTo(13);
        channel.budget = Integer.MAX_VALUE;
        assertThat(outbox.flush(channel)).isTrue();
        assertThat(channel.text()).isEqualTo("PONG\n");
    }

    @Test
    void refusesWhatDoesNotFit() {
        Outbox outbox = new Outbox(4);
        assertThatThrownBy(() -> outbox.append("PONG\n".getBytes(StandardCharsets.US_ASCII)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("outbox full: 5 bytes do not fit in 4");
    }
}
