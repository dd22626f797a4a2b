/**
 * Hourglass Micrometer: meter binders that show a timer's, the patterns' and a Redis timers node's
 * counters to Micrometer. The patterns and Redis are optional: an application binds the meters of
 * what it uses, and needs only that on its path.
 */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module dev.hourglass.micrometer {
    requires transitive dev.hourglass.core;
    requires transitive micrometer.core;
    requires static transitive dev.hourglass.patterns;
    requires static transitive dev.hourglass.redis;

    exports dev.hourglass.micrometer;
}
