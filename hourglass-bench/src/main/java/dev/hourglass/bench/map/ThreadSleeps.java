package dev.hourglass.bench.map;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Counts how often threads went to sleep: the voluntary context switches Linux keeps per thread in
 * {@code /proc/self/task/<tid>/status} (a park, a wait or a blocking call that gave the core up).
 * Java does not tell a thread's native id, so a thread is found by its native name, the first
 * {@value #NATIVE_NAME_LENGTH} bytes of its Java name, which must not be shared with another live
 * thread of the JVM.
 *
 * <p>Complexity: O(threads of the JVM) per count. Ordering: not applicable.
 *
 * <p>Thread-safety: stateless.
 */
final class ThreadSleeps {

    /** Linux keeps this many bytes of a thread's name (16 with the terminating zero). */
    static final int NATIVE_NAME_LENGTH = 15;

    private static final Path TASKS = Paths.get("/proc/self/task");
    private static final String VOLUNTARY = "voluntary_ctxt_switches:";

    private ThreadSleeps() {}

    /**
     * Sums the voluntary context switches of the live threads among {@code threads}.
     *
     * @param threads the threads, each with a name no other live thread shares in its first
     *     {@value #NATIVE_NAME_LENGTH} characters
     * @return the sum, or -1 where the system keeps no such count (not Linux)
     * @throws IllegalStateException if {@code /proc} cannot be read while it exists
     */
    static long voluntarySwitches(List<Thread> threads) {
        if (!Files.isDirectory(TASKS)) {
            return -1;
        }
        Set<String> names = new HashSet<>();
        for (Thread thread : threads) {
            if (thread.isAlive()) {
                String name = thread.getName();
                names.add(name.length() > NATIVE_NAME_LENGTH ? name.substring(0, NATIVE_NAME_LENGTH) : name);
            }
        }
        long sum = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            for (Path task : tasks) {
                if (names.contains(readComm(task))) {
                    sum += readVoluntary(task);
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + TASKS + ": " + e, e);
        }
        return sum;
    }

    private static String readComm(Path task) throws IOException {
        try {
            return new String(Files.readAllBytes(task.resolve("comm")), StandardCharsets.UTF_8).strip();
        } catch (NoSuchFileException gone) {
            return ""; // the thread ended while the tasks were listed
        }
    }

    private static long readVoluntary(Path task) throws IOException {
        List<String> status;
        try {
            status = Files.readAllLines(task.resolve("status"), StandardCharsets.UTF_8);
        } catch (NoSuchFileException gone) {
            return 0; // the thread ended after its name was read: it sleeps no more
        }
        for (String line : status) {
            if (line.startsWith(VOLUNTARY)) {
                return Long.parseLong(line.substring(VOLUNTARY.length()).strip());
            }
        }
        throw new IllegalStateException(task.resolve("status") + " has no " + VOLUNTARY);
    }
}
