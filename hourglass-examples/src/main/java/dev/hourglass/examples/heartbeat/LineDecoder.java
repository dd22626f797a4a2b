package dev.hourglass.examples.heartbeat;

import java.nio.ByteBuffer;

/**
 * Splits the bytes a client sends into lines of the heartbeat protocol and classifies each. A line
 * ends with {@code \n}; a {@code \r} before it is dropped. {@code PING} (exactly, upper case) is a
 * ping, an empty line is {@link Line#BLANK}, anything else {@link Line#UNKNOWN}. A line longer than
 * the buffer is discarded as it arrives and reported once, as {@link Line#TOO_LONG}, when its end
 * comes, so an endless line costs no memory.
 *
 * <p>Complexity: O(bytes buffered) per {@link #next()}, at most the capacity. Ordering: lines in
 * arrival order.
 *
 * <p>Thread-safety: none; one connection's loop thread uses it.
 */
final class LineDecoder {

    /** What a complete line was. */
    enum Line {
        /** {@code PING}: answered with {@code PONG}. */
        PING,
        /** An empty line: ignored, but it is activity. */
        BLANK,
        /** Any other line. */
        UNKNOWN,
        /** A line longer than the decoder's capacity. */
        TOO_LONG
    }

    private static final byte[] PING = {'P', 'I', 'N', 'G'};

    /** Write mode: bytes [0, position) are received and not yet decoded. */
    private final ByteBuffer buffer;

    /** Bytes [0, scanned) hold no newline. */
    private int scanned;

    /** Inside a line that overflowed the buffer. */
    private boolean discarding;

    /**
     * Creates a decoder.
     *
     * @param capacity the longest line it keeps, newline included; at least 8
     */
    LineDecoder(int capacity) {
        if (capacity < 8) {
            throw new IllegalArgumentException("capacity must be at least 8: " + capacity);
        }
        buffer = ByteBuffer.allocate(capacity);
    }

    /**
     * Returns the buffer to read into: append to it (in write mode) and then call {@link #next()}
     * until it returns null. It always has room after {@link #next()} has returned null.
     *
     * @return the receive buffer
     */
    ByteBuffer buffer() {
        return buffer;
    }

    /**
     * Consumes the next complete line.
     *
     * @return what the line was, or null when no complete line is buffered
     */
    Line next() {
        int end = buffer.position();
        int newline = -1;
        for (int i = scanned; i < end; i++) {
            if (buffer.get(i) == '\n') {
                newline = i;
                break;
            }
        }
        if (newline < 0) {
            scanned = end;
            if (!buffer.hasRemaining()) {
                // The line cannot fit: drop what is here and report the line when its end comes.
                discarding = true;
                buffer.clear();
                scanned = 0;
            }
            return null;
        }
        Line line = discarding ? Line.TOO_LONG : classify(newline);
        discarding = false;
        buffer.flip();
        buffer.position(newline + 1);
        buffer.compact();
        scanned = 0;
        return line;
    }

    private Line classify(int newline) {
        int length = newline > 0 && buffer.get(newline - 1) == '\r' ? newline - 1 : newline;
        if (length == 0) {
            return Line.BLANK;
        }
        if (length != PING.length) {
            return Line.UNKNOWN;
        }
        for (int i = 0; i < length; i++) {
            if (buffer.get(i) != PING[i]) {
                return Line.UNKNOWN;
            }
        }
        return Line.PING;
    }
}
