package dev.hourglass.timer;

import dev.hourglass.loop.EventLoop;

/** The stress test on the event-loop driver. */
class EventLoopStressTest extends TimerStressTest {
    @Override
    Timer newTimer(TimerBuilder builder) {
        EventLoop loop = EventLoop.open(builder);
        loop.start();
        return loop;
    }
}
