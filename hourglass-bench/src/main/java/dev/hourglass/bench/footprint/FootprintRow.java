package dev.hourglass.bench.footprint;

/**
 * What one implementation retains, from {@link Footprint}.
 *
 * <p>Complexity: O(1). Ordering: n/a. Thread-safety: immutable.
 *
 * @param impl the implementation's name: a TimerStructure name or an anchor's
 * @param timers how many timers were scheduled
 * @param fixedBytes what the empty structure retains (its buckets), or -1 when not measured (the
 *     implementation owns a thread)
 * @param bytesPerPending what each pending timer adds, the fixed part excluded
 * @param bytesPerPendingWithFixed the same with the fixed part shared among the timers, or NaN
 * @param bytesPerCancelled what each cancelled timer still retains until the implementation's next
 *     tick or purge
 * @param note how the implementation holds its timers
 */
public record FootprintRow(
        String impl,
        int timers,
        long fixedBytes,
        double bytesPerPending,
        double bytesPerPendingWithFixed,
        double bytesPerCancelled,
        String note) {

    private static final String SEPARATOR = "\t";

    /**
     * Writes the row as one tab-separated line.
     *
     * @return the line, without a line break
     */
    public String toLine() {
        return String.join(
                SEPARATOR,
                impl,
                Integer.toString(timers),
                Long.toString(fixedBytes),
                Double.toString(bytesPerPending),
                Double.toString(bytesPerPendingWithFixed),
                Double.toString(bytesPerCancelled),
                note);
    }

    /**
     * Reads a row written by {@link #toLine()}.
     *
     * @param line the line
     * @return the row
     * @throws IllegalArgumentException if the line does not have the seven fields
     */
    public static FootprintRow parse(String line) {
        String[] fields = line.split(SEPARATOR, -1);
        if (fields.length != 7) {
            throw new IllegalArgumentException("line must have 7 tab-separated fields: " + line);
        }
        return new FootprintRow(
                fields[0],
                Integer.parseInt(fields[1]),
                Long.parseLong(fields[2]),
                Double.parseDouble(fields[3]),
                Double.parseDouble(fields[4]),
                Double.parseDouble(fields[5]),
                fields[6]);
    }
}
