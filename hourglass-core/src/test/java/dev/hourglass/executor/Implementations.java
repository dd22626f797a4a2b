package dev.hourglass.executor;

import dev.hourglass.queue.TimerStructure;
import dev.hourglass.timer.Timers;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;

/**
 * The executors the contract tests compare: the JDK's {@link ScheduledThreadPoolExecutor} (one
 * thread, remove-on-cancel on, as the adapter always removes) and the adapter with tasks on the
 * timer's thread and on a pool of two threads, all on the system clock.
 */
enum Implementations {
    JDK {
        @Override
        ScheduledExecutorService create(boolean executeDelayed, boolean continuePeriodic, List<ExecutorService> pools) {
            ScheduledThreadPoolExecutor stpe = new ScheduledThreadPoolExecutor(1);
            stpe.setRemoveOnCancelPolicy(true);
            stpe.setExecuteExistingDelayedTasksAfterShutdownPolicy(executeDelayed);
            stpe.setContinueExistingPeriodicTasksAfterShutdownPolicy(continuePeriodic);
            pools.add(stpe);
            return stpe;
        }
    },
    TIMER_THREAD {
        @Override
        ScheduledExecutorService create(boolean executeDelayed, boolean continuePeriodic, List<ExecutorService> pools) {
            return policies(TimerExecutors.builder(), executeDelayed, continuePeriodic)
                    .startTimerThread(Timers.builder().structure(TimerStructure.BINARY_HEAP));
        }
    },
    POOL {
        @Override
        ScheduledExecutorService create(boolean executeDelayed, boolean continuePeriodic, List<ExecutorService> pools) {
            ExecutorService pool = Executors.newFixedThreadPool(2);
            pools.add(pool);
            return policies(TimerExecutors.builder().taskExecutor(pool), executeDelayed, continuePeriodic)
                    .startTimerThread();
        }
    };

    /**
     * Makes an executor with the given shutdown policies.
     *
     * @param pools collects the thread pools the test must shut down afterwards
     */
    abstract ScheduledExecutorService create(
            boolean executeDelayed, boolean continuePeriodic, List<ExecutorService> pools);

    static TimerExecutorBuilder policies(
            TimerExecutorBuilder builder, boolean executeDelayed, boolean continuePeriodic) {
        return builder.executeExistingDelayedTasksAfterShutdown(executeDelayed)
                .continueExistingPeriodicTasksAfterShutdown(continuePeriodic);
    }
}
