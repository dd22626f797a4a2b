package dev.hourglass.bench.map;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Counts how often threads went to sleep: the voluntary context switches Linux keeps per thread in
 * {@code /proc/self/task/<tid>/status} (a park, a wait or a blocking call that gave the core up).
 * Java does not tell a thread's native id, so a thread is found by its native name, the first
 * {@value #NATIVE_NAME_BYTES} bytes of its Java name in UTF-8 as it was when the thread started (a
 * later {@link Thread#setName} is not seen), which must not be shared with another live thread of
 * the JVM.
 *
 * <p>Complexity: O(threads of the JVM) file reads per count. Ordering: not applicable.
 *
 * <p>Thread-safety: stateless.
 */
final class ThreadSleeps {

    /** Linux keeps this many bytes of a thread's name (16 with the terminating zero). */
    static final int NATIVE_NAME_BYTES = 15;

    private static final Path TASKS = Paths.get("/proc/self/task");
    private static final String VOLUNTARY = "voluntary_ctxt_switches:";

    private ThreadSleeps() {}

    /**
     * Reads the voluntary context switches of each live thread among {@code threads}.
     *
     * @param threads the threads, each with a native name no other live thread shares
     * @return the count of each thread found alive, or null where the system keeps no such count (not
     *     Linux)
     * @throws IllegalStateException if {@code /proc} cannot be listed, or a count cannot be read
     */
    static Map<Thread, Long> voluntarySwitches(List<Thread> threads) {
        if (!Files.isDirectory(TASKS)) {
            return null;
        }
        Map<String, Thread> byName = new HashMap<>();
        for (Thread thread : threads) {
            if (thread.isAlive()) {
                byName.put(nativeName(thread), thread);
            }
        }
        Map<Thread, Long> counts = new HashMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            for (Path task : tasks) {
                Thread thread = byName.get(readComm(task));
                if (thread != null) {
                    long count = readVoluntary(task);
                    if (count >= 0) {
                        counts.put(thread, count);
                    }
                }
            }
        } catch (IOException | DirectoryIteratorException e) {
            throw new IllegalStateException("cannot list " + TASKS + ": " + e, e);
        }
        return counts;
    }

    /** The name Linux keeps, its bytes as ISO-8859-1 characters, so that bytes compare with bytes. */
    private static String nativeName(Thread thread) {
        byte[] name = thread.getName().getBytes(StandardCharsets.UTF_8);
        return new String(name, 0, Math.min(name.length, NATIVE_NAME_BYTES), StandardCharsets.ISO_8859_1);
    }

    /** The task's name as {@link #nativeName} spells it, or null if the task ended meanwhile. */
    private static String readComm(Path task) {
        byte[] comm;
        try {
            comm = Files.readAllBytes(task.resolve("comm"));
        } catch (IOException gone) {
            return null; // the thread ended while the tasks were listed (ENOENT or ESRCH)
        }
        int length = comm.length > 0 && comm[comm.length - 1] == '\n' ? comm.length - 1 : comm.length;
        return new String(Arrays.copyOf(comm, length), StandardCharsets.ISO_8859_1);
    }

    /** The task's count, or -1 if it ended after its name was read. */
    private static long readVoluntary(Path task) {
        Path status = task.resolve("status");
        List<String> lines;
        try {
            lines = Files.readAllLines(status, StandardCharsets.UTF_8);
        } catch (IOException gone) {
            return -1;
        }
        for (String line : lines) {
            if (line.startsWith(VOLUNTARY)) {
                String value = line.substring(VOLUNTARY.length()).strip();
                try {
                    return Long.parseLong(value);
                } catch (NumberFormatException e) {
                    throw new IllegalStateException(status + " has a " + VOLUNTARY + " that is no number: " + value, e);
                }
            }
        }
        throw new IllegalStateException(status + " has no " + VOLUNTARY);
    }
}
