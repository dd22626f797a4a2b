package dev.hourglass.timer;

import dev.hourglass.loop.EventLoop;

/** The driver contract on the event loop, run on a thread of its own like the timer thread. */
class EventLoopContractTest extends TimerContractTest {

    @Override
    Timer newTimer(TimerBuilder builder) {
        EventLoop loop = EventLoop.open(builder);
        loop.start();
        return loop;
    }
}
