package io.dynarestore.protector.tables;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A step run on a fixed delay, one at a time: what a table's guard and a shard group's capture
 * tick with. Work that must not overlap a step runs {@link #exclusive}; {@link #stop} returns only
 * once no step runs any more, and no step runs after it.
 */
final class SerialTask {

    private final Runnable step;
    private final ReentrantLock stepping = new ReentrantLock();
    private volatile boolean stopped;
    private ScheduledFuture<?> task;

    SerialTask(Runnable step) {
        this.step = step;
    }

    synchronized void start(ScheduledExecutorService scheduler, Duration every) {
        task = scheduler.scheduleWithFixedDelay(this::tick, 0, every.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Runs {@code action} while no step runs. */
    void exclusive(Runnable action) {
        stepping.lock();
        try {
            action.run();
        } finally {
            stepping.unlock();
        }
    }

    /** Schedules no more steps; one running goes on. */
    synchronized void cancel() {
        if (task != null) {
            task.cancel(false);
        }
    }

    /** Cancels the task, then runs {@code last} once no step runs; no step runs after it. */
    void stop(Runnable last) {
        cancel();
        exclusive(() -> {
            stopped = true;
            last.run();
        });
    }

    /** Whether {@link #stop} was called: work on other threads checks it before it starts. */
    boolean stopped() {
        return stopped;
    }

    private void tick() {
        exclusive(() -> {
            if (!stopped) {
                step.run();
            }
        });
    }
}
