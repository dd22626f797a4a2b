package dev.hourglass.queue;

/**
 * One bit per wheel slot, set while the slot holds a timer, so that a wheel finds its next occupied
 * slot a word (64 slots) at a time instead of walking empty slots one by one.
 *
 * <p>Complexity: set and clear O(1); {@link #nextSetCyclic} O(slots / 64) in the worst case.
 *
 * <p>Thread-safety: none; owned by one wheel.
 */
final class SlotBitmap {

    private final long[] words;
    private final int slots;

    /** Makes a bitmap for {@code slots} slots, a power of two. */
    SlotBitmap(int slots) {
        this.slots = slots;
        this.words = new long[Math.max(1, slots >>> 6)];
    }

    void set(int slot) {
        words[slot >>> 6] |= 1L << slot;
    }

    void clear(int slot) {
        words[slot >>> 6] &= ~(1L << slot);
    }

    boolean isEmpty() {
        for (long word : words) {
            if (word != 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * Returns the distance, from 0 to slots - 1, from slot {@code from} forward (wrapping) to the
     * first set slot, {@code from} itself included; or -1 if no slot is set.
     */
    int nextSetCyclic(int from) {
        int mask = slots - 1;
        int word = from >>> 6;
        // The first word: only bits at or after from.
        long bits = words[word] & (-1L << from);
        int scanned = 0;
        int wordCount = words.length;
        while (true) {
            if (bits != 0) {
                int slot = (word << 6) + Long.numberOfTrailingZeros(bits);
                return (slot - from) & mask;
            }
            if (++scanned > wordCount) {
                return -1;
            }
            word = word + 1 == wordCount ? 0 : word + 1;
            bits = words[word];
            if (scanned == wordCount) {
                // Back at the first word: only bits before from remain unseen.
                bits &= (1L << from) - 1;
            }
        }
    }
}
