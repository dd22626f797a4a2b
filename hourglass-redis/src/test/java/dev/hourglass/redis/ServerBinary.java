package dev.hourglass.redis;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Which Redis-protocol server a test starts, and where its executable is: Debian's Redis 7.0
 * ({@code redis-server}), or Valkey 8 ({@code valkey-server}, a fork of Redis 7.2 that has
 * {@code WAITAOF}, so {@link Durability#fsync()} takes its 7.2 path there). Both take redis.conf
 * arguments. A missing executable FAILS the test with how to install it; it never skips.
 *
 * <p>Complexity, ordering: not applicable. Thread-safety: immutable.
 */
public enum ServerBinary {
    /** Redis from the PATH or {@code -Dhourglass.redis.server}: Debian 12's is 7.0.15. */
    REDIS(
            "redis-server",
            "hourglass.redis.server",
            "Redis 7.0 or later (Debian/Ubuntu: apt-get install -y redis-server)"),
    /** Valkey from the PATH or {@code -Dhourglass.valkey.server}: bookworm-backports has 8.0.1. */
    VALKEY(
            "valkey-server",
            "hourglass.valkey.server",
            "Valkey 8 (Debian 12: add 'deb http://deb.debian.org/debian bookworm-backports main' to the apt"
                    + " sources, then apt-get install -y valkey-server; .ci/run does both)");

    private final String executable;
    private final String property;
    private final String install;

    ServerBinary(String executable, String property, String install) {
        this.executable = executable;
        this.property = property;
        this.install = install;
    }

    /**
     * Returns the executable's file name.
     *
     * @return e.g. "valkey-server"
     */
    public String executable() {
        return executable;
    }

    /**
     * Finds the executable: the path in the system property if set, else the first on the PATH.
     *
     * @return its path
     * @throws IllegalStateException if there is none, saying how to get one
     */
    public Path path() {
        String configured = System.getProperty(property);
        if (configured != null) {
            if (!Files.isExecutable(Path.of(configured))) {
                throw new IllegalStateException("-D" + property + "=" + configured + " is not an executable file");
            }
            return Path.of(configured);
        }
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir, executable);
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("no " + executable + " found: install " + install + ", put it on the PATH or"
                + " pass -D" + property + "=/path/to/" + executable);
    }
}
