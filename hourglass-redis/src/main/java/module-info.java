/**
 * Hourglass Redis: durable distributed timers on Redis. Its builder takes core's {@code Timer} and
 * Jedis's {@code JedisClientConfig}, so both are required transitively; Jedis is an automatic
 * module (its jar names itself {@code redis.clients.jedis}).
 */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module dev.hourglass.redis {
    requires transitive dev.hourglass.core;
    requires transitive redis.clients.jedis;
    requires org.apache.commons.pool2;

    exports dev.hourglass.redis;
}
