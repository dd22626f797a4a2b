package dev.hourglass.timer;

/** The stress test on the event-loop driver. */
class EventLoopStressTest extends TimerStressTest {
    @Override
    Timer newTimer(TimerBuilder builder) {
        EventLoop loop = builder.openEventLoop();
        loop.start();
        return loop;
    }
}
