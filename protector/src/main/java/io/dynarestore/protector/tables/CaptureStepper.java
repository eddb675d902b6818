package io.dynarestore.protector.tables;

import io.dynarestore.protector.changelog.StreamCapture;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;

/**
 * One capture as its owner's tick steps it (a table's {@link TableGuard}, or a {@link GroupCapture}):
 * started when there is none (not before the time a failed one may start again), given a new flush
 * interval between steps, and read on without the poll interval's pause while the stream holds more
 * than a page, for at most a slice, so that the owner's other work gets its turn. The owner steps it
 * under its own lock, one thread at a time; {@link #capture()} may be read from others.
 */
final class CaptureStepper {

    /** How long one tick reads on while the stream holds more. */
    private static final Duration CATCH_UP_SLICE = Duration.ofSeconds(2);

    private final Supplier<StreamCapture> newCapture;
    private volatile StreamCapture capture;
    private volatile Duration pendingFlushInterval;
    private volatile Instant pendingFlushThrough;
    private volatile Instant nextStartAttempt = Instant.MIN;

    /** @param newCapture a capture of the owner's current policy, not started yet */
    CaptureStepper(Supplier<StreamCapture> newCapture) {
        this.newCapture = newCapture;
    }

    /** The running capture, or null. */
    StreamCapture capture() {
        return capture;
    }

    /**
     * Starts the capture if there is none and its start is due, then reads for at most a slice.
     *
     * @return the capture this step started, or null (it was running, or may not start yet)
     */
    StreamCapture step(Instant now) {
        StreamCapture started = null;
        if (capture == null) {
            if (now.isBefore(nextStartAttempt)) {
                return null;
            }
            started = newCapture.get();
            started.start();
            capture = started;
        }
        Duration interval = pendingFlushInterval;
        if (interval != null) {
            pendingFlushInterval = null;
            capture.flushEvery(interval);
        }
        Instant through = pendingFlushThrough;
        if (through != null) {
            pendingFlushThrough = null;
            capture.flushThrough(through);
        }
        long until = System.nanoTime() + CATCH_UP_SLICE.toNanos();
        while (capture.step() && System.nanoTime() < until) {
            // catching up
        }
        return started;
    }

    /** The running capture flushes every {@code interval} from its next step on (none running: nothing to do). */
    void flushEvery(Duration interval) {
        if (capture != null) {
            pendingFlushInterval = interval;
        }
    }

    /** The running capture flushes from its next step on until its log reaches {@code target} (any thread). */
    void flushThrough(Instant target) {
        Instant pending = pendingFlushThrough;
        if (capture != null && (pending == null || target.isAfter(pending))) {
            pendingFlushThrough = target;
        }
    }

    /** Stops the capture, waiting for the flush it is writing: no write of it races the next capture. */
    void stop() {
        StreamCapture running = capture;
        capture = null;
        if (running != null) {
            running.stop();
        }
    }

    /** Stops the capture after a failed step; the next one starts from the vault's checkpoint at {@code retryAt}. */
    void failed(Instant retryAt) {
        stop();
        nextStartAttempt = retryAt;
    }
}
