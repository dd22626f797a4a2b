package dev.hourglass.examples.heartbeat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;

/**
 * A connection's bounded write buffer for non-blocking writes: replies are appended, {@link
 * #flush} writes what the socket takes now, and the rest waits for the socket to become writable
 * (the caller then wants {@code OP_WRITE}). When it is nearly full the caller stops reading, so a
 * client that sends but does not read cannot make the server buffer without bound.
 *
 * <p>Complexity: O(bytes) per append and per flush. Ordering: bytes leave in the order appended.
 *
 * <p>Thread-safety: none; one connection's loop thread uses it.
 */
final class Outbox {

    /** Write mode: bytes [0, position) wait to be written. */
    private final ByteBuffer buffer;

    /**
     * Creates an outbox.
     *
     * @param capacity how many bytes may wait, positive
     */
    Outbox(int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        buffer = ByteBuffer.allocate(capacity);
    }

    /**
     * Tells how many more bytes fit.
     *
     * @return the free space
     */
    int room() {
        return buffer.remaining();
    }

    /**
     * Tells whether bytes wait to be written.
     *
     * @return true if the last flush could not write everything
     */
    boolean isEmpty() {
        return buffer.position() == 0;
    }

    /**
     * Appends {@code bytes}.
     *
     * @param bytes what to send
     * @throws IllegalStateException if they do not fit: check {@link #room()} first
     */
    void append(byte[] bytes) {
        if (bytes.length > buffer.remaining()) {
            throw new IllegalStateException(
                    "outbox full: " + bytes.length + " bytes do not fit in " + buffer.remaining());
        }
        buffer.put(bytes);
    }

    /**
     * Writes as much as {@code channel} takes without blocking.
     *
     * @param channel a non-blocking channel
     * @return true if everything was written
     * @throws IOException if the write fails
     */
    boolean flush(WritableByteChannel channel) throws IOException {
        if (buffer.position() == 0) {
            return true;
        }
        buffer.flip();
        try {
            while (buffer.hasRemaining() && channel.write(buffer) > 0) {
                // A non-blocking socket takes what fits; 0 means its send buffer is full.
            }
        } finally {
            buffer.compact();
        }
        return buffer.position() == 0;
    }
}
