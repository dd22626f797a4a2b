/**
 * Netty's {@link io.netty.util.Timer} over an Hourglass {@link dev.hourglass.timer.Timer}: {@link
 * dev.hourglass.netty.NettyTimers#wrap} makes one, which keeps the contract of Netty 4.2's {@code
 * HashedWheelTimer} method by method.
 */
package dev.hourglass.netty;
