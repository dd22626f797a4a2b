package dev.hourglass.timer;

/** The stress test on the timer-thread driver. */
class TimerThreadTimerStressTest extends TimerStressTest {
    @Override
    Timer newTimer(TimerBuilder builder) {
        return builder.startTimerThread();
    }
}
