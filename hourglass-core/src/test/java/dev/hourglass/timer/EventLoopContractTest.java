package dev.hourglass.timer;

/** The driver contract on the event loop, run on a thread of its own like the timer thread. */
class EventLoopContractTest extends TimerContractTest {

    @Override
    Timer newTimer(TimerBuilder builder) {
        EventLoop loop = builder.openEventLoop();
        loop.start();
        return loop;
    }
}
