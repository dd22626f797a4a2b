package dev.hourglass.redis;

import redis.clients.jedis.Jedis;

/** Reads the server's {@code INFO commandstats}, for tests that count what a node sent. */
final class CommandStats {
    private CommandStats() {}

    /**
     * Returns how often the server ran a command since its start or CONFIG RESETSTAT.
     *
     * @param jedis a connection to the server
     * @param command the command as INFO names it, lower case ({@code evalsha}, {@code config|get})
     * @return its calls, 0 if none
     */
    static long calls(Jedis jedis, String command) {
        String prefix = "cmdstat_" + command + ":calls=";
        return jedis.info("commandstats")
                .lines()
                .filter(l -> l.startsWith(prefix))
                .mapToLong(l -> Long.parseLong(l.substring(prefix.length(), l.indexOf(','))))
                .sum();
    }
}
