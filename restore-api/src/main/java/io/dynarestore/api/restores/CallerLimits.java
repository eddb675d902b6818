package io.dynarestore.api.restores;

import io.dynarestore.api.ApiProperties;
import io.dynarestore.api.problems.ApiProblem;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What one caller may take of a replica. Submissions (restores, cancels, rollbacks) draw from a
 * token bucket per caller, {@code submissionsPerMinute} refilled evenly, holding at most
 * {@code submissionBurst}; an empty bucket is a 429 that says when to come back. Event streams
 * are counted per caller, at most {@code streamsPerCaller} at a time. Both maps are bounded:
 * buckets of the least recently seen callers beyond {@code callers} are forgotten (a forgotten
 * caller starts with a full bucket), and a caller's stream count leaves the map at zero.
 */
final class CallerLimits {

    private final ApiProperties.Limits limits;
    private final Map<String, double[]> buckets;
    private final Map<String, Integer> streams = new ConcurrentHashMap<>();

    CallerLimits(ApiProperties.Limits limits) {
        this.limits = limits;
        this.buckets = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, double[]> eldest) {
                return size() > limits.callers();
            }
        };
    }

    /** Takes one submission of {@code caller}, or throws a 429 with the seconds to wait. */
    void submission(String caller) {
        long wait = take(caller == null ? "" : caller, System.nanoTime());
        if (wait > 0) {
            throw new ApiProblem(
                            429,
                            "TOO_MANY_REQUESTS",
                            (caller == null ? "This caller" : "'" + caller + "'")
                                    + " submitted more than " + limits.submissionsPerMinute()
                                    + " restores, cancels or rollbacks a "
                                    + "minute (" + limits.submissionBurst() + " at once); try again in " + wait + " s.",
                            null)
                    .retryAfter(wait);
        }
    }

    /** The seconds to wait before {@code caller} may submit again; 0 when it may now (and the token is taken). */
    synchronized long take(String caller, long nowNanos) {
        double perNano = limits.submissionsPerMinute() / 60e9;
        double[] bucket = buckets.computeIfAbsent(caller, c -> new double[] {limits.submissionBurst(), nowNanos});
        bucket[0] = Math.min(limits.submissionBurst(), bucket[0] + (nowNanos - bucket[1]) * perNano);
        bucket[1] = nowNanos;
        if (bucket[0] >= 1) {
            bucket[0] -= 1;
            return 0;
        }
        return Math.max(1, (long) Math.ceil((1 - bucket[0]) / perNano / 1e9));
    }

    /** Opens a stream of {@code caller}, or throws a 429; {@link #streamClosed} must follow an open. */
    void streamOpened(String caller) {
        if (streams.merge(caller == null ? "" : caller, 1, Integer::sum) > limits.streamsPerCaller()) {
            streamClosed(caller);
            throw new ApiProblem(
                            429,
                            "TOO_MANY_STREAMS",
                            (caller == null ? "This caller" : "'" + caller + "'")
                                    + " holds " + limits.streamsPerCaller()
                                    + " event streams of this replica already; close one, or "
                                    + "follow restore.status on Kafka.",
                            null)
                    .retryAfter(5);
        }
    }

    void streamClosed(String caller) {
        streams.computeIfPresent(caller == null ? "" : caller, (c, n) -> n > 1 ? n - 1 : null);
    }
}
