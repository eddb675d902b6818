package io.dynarestore.core.kafka;

import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The consumer threads of one service and whether each still runs. Rule: a consumer thread that
 * ends for any reason other than the service stopping it (an exception, an error, a body that
 * returned) is recorded here for good, and the service's liveness turns DOWN, so that an
 * orchestrator restarts it instead of leaving a service that answers probes but reads nothing.
 * One per service (per Spring context), handed to every consumer it starts.
 */
public final class ConsumerHealth {

    /** How one consumer thread is doing. */
    public record State(boolean running, String stoppedBecause, Instant since) {}

    private final Map<String, State> threads = new ConcurrentHashMap<>();

    void started(String name) {
        threads.put(name, new State(true, null, Instant.now()));
    }

    void stoppedOnPurpose(String name) {
        threads.remove(name);
    }

    void stoppedUnexpectedly(String name, String why) {
        threads.put(name, new State(false, why, Instant.now()));
    }

    /** Whether every consumer thread started is running (or was stopped by the service itself). */
    public boolean healthy() {
        return threads.values().stream().allMatch(State::running);
    }

    /** For a health endpoint: each thread's state, and why a stopped one stopped. */
    public Map<String, Object> details() {
        var details = new TreeMap<String, Object>();
        threads()
                .forEach((name, s) -> details.put(
                        name,
                        s.running()
                                ? "running since " + s.since()
                                : "stopped at " + s.since() + ": " + s.stoppedBecause()));
        return details;
    }

    /** Each consumer thread by name, sorted. */
    public Map<String, State> threads() {
        return new TreeMap<>(threads);
    }
}
