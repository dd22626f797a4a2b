/** One Hourglass timer serving Lettuce's command timeouts and the application's request timeouts. */
package dev.hourglass.examples.lettuce;
