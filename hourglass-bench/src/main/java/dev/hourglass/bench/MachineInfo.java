package dev.hourglass.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * What the report says about the machine: CPU model, cores, memory, JDK, OS, load.
 *
 * <p>Complexity: reads a few /proc files. Ordering: n/a. Thread-safety: stateless.
 *
 * @param cpu the CPU model from /proc/cpuinfo
 * @param cores the processors the JVM sees
 * @param memory the total memory from /proc/meminfo
 * @param jdk the JDK's name and version
 * @param os the operating system
 * @param load the load averages at the start
 */
record MachineInfo(String cpu, int cores, String memory, String jdk, String os, String load) {

    /**
     * Reads the machine's description.
     *
     * @return the description; "unknown" where a file is missing
     */
    static MachineInfo read() {
        String cpu = firstValue(Path.of("/proc/cpuinfo"), "model name");
        String memory = firstValue(Path.of("/proc/meminfo"), "MemTotal");
        if (memory.endsWith("kB")) {
            long kb = Long.parseLong(memory.replace("kB", "").trim());
            memory = String.format(Locale.ROOT, "%.1f GiB", kb / 1024.0 / 1024.0);
        }
        String load;
        try {
            load = Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            load = "unknown";
        }
        String jdk = System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version");
        String os = System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch");
        return new MachineInfo(cpu, Runtime.getRuntime().availableProcessors(), memory, jdk, os, load);
    }

    private static String firstValue(Path file, String key) {
        try {
            List<String> lines = Files.readAllLines(file);
            for (String line : lines) {
                if (line.startsWith(key)) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException e) {
            return "unknown";
        }
        return "unknown";
    }
}
