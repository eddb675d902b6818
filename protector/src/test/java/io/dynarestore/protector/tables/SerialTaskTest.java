package io.dynarestore.protector.tables;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SerialTaskTest {

    private final ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(4);

    @AfterEach
    void shutDown() {
        scheduler.shutdownNow();
    }

    @Test
    void stopWaitsForTheRunningStepAndNoStepRunsAfterIt() throws Exception {
        // Given a task whose step is running, and held until released
        var inStep = new CountDownLatch(1);
        var release = new CountDownLatch(1);
        var steps = new AtomicInteger();
        var task = new SerialTask(() -> {
            steps.incrementAndGet();
            inStep.countDown();
            await(release);
        });
        task.start(scheduler, Duration.ofMillis(1));
        assertThat(inStep.await(5, TimeUnit.SECONDS)).isTrue();

        // When it is stopped from another thread
        var lastRan = new AtomicBoolean();
        var stopped = new CountDownLatch(1);
        new Thread(() -> {
                    task.stop(() -> lastRan.set(true));
                    stopped.countDown();
                })
                .start();

        // Then the stop waits for the step, runs its last action, and no step follows
        assertThat(stopped.await(200, TimeUnit.MILLISECONDS))
                .as("returned while a step ran")
                .isFalse();
        release.countDown();
        assertThat(stopped.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(lastRan).isTrue();
        assertThat(task.stopped()).isTrue();
        int after = steps.get();
        Thread.sleep(50);
        assertThat(steps.get()).isEqualTo(after);
    }

    @Test
    void exclusiveWorkNeverOverlapsAStep() {
        // Given a task that steps every millisecond, each step marking itself as running
        var running = new AtomicBoolean();
        var overlaps = new AtomicInteger();
        var task = new SerialTask(() -> {
            running.set(true);
            sleep(1);
            running.set(false);
        });
        task.start(scheduler, Duration.ofMillis(1));

        // When another thread runs exclusive work 200 times
        for (int i = 0; i < 200; i++) {
            task.exclusive(() -> {
                if (running.get()) {
                    overlaps.incrementAndGet();
                }
            });
        }
        task.stop(() -> {});

        // Then none of it ran while a step did
        assertThat(overlaps).hasValue(0);
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
