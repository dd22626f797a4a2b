/**
 * Hourglass for Netty: Netty's {@code io.netty.util.Timer} backed by an Hourglass {@code
 * dev.hourglass.timer.Timer}, for libraries that take a Netty timer (Lettuce, AsyncHttpClient,
 * Redisson, Dubbo). Uses the Netty (4.2 or later) the application already has.
 */
module dev.hourglass.netty {
    requires transitive dev.hourglass.core;
    requires transitive io.netty.common;

    exports dev.hourglass.netty;
}
