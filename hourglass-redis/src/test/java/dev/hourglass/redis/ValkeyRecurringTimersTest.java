package dev.hourglass.redis;

/** {@link RecurringTimersTest}'s recurring timers (fixed rate and delay, cron, fencing) on Valkey 8. */
class ValkeyRecurringTimersTest extends RecurringTimersTest {
    @Override
    RedisServerProcess startServer() {
        return RedisServerProcess.start(ServerBinary.VALKEY, "everysec");
    }
}
