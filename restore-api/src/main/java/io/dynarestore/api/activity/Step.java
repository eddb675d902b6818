package io.dynarestore.api.activity;

import java.util.HashMap;
import java.util.Map;

/**
 * One step of a change timeline: the writes whose time falls in [start, start + step). {@code rewrites}
 * counts, by attribute, the overwrites that changed it (at most {@link #MAX_ATTRIBUTES} names a step).
 */
final class Step {

    static final int MAX_ATTRIBUTES = 64;

    final long startMicros;
    long creates;
    long overwrites;
    long deletes;
    long writeUnits;
    final Map<String, Long> rewrites = new HashMap<>();

    Step(long startMicros) {
        this.startMicros = startMicros;
    }

    void rewrote(String attribute) {
        if (rewrites.containsKey(attribute) || rewrites.size() < MAX_ATTRIBUTES) {
            rewrites.merge(attribute, 1L, Long::sum);
        }
    }

    long rewrites(String attribute) {
        return rewrites.getOrDefault(attribute, 0L);
    }
}
