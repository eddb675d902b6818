package io.dynarestore.contracts.status;

import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * What the segments of one restore did, as their events report it. Rules: a segment counts once
 * however often it completes (the first completion's counts, check and diff); a completed segment
 * takes no later progress or cancel; a segment in flight counts its latest progress; throttles are
 * the highest any progress of a segment reported; a strict undo's conflicts are summed over the
 * completed segments, with at most {@link RestorePlanned.Conflicts#MAX_SAMPLES} samples.
 */
final class SegmentTally {

    private final Map<Integer, SegmentCounts> completed = new HashMap<>();
    private final Map<Integer, SegmentCounts> inFlight = new HashMap<>();
    private final Map<Integer, SegmentCounts> cancelled = new HashMap<>();
    private final Map<Integer, String> failed = new HashMap<>();
    private final Map<Integer, Long> wcu = new HashMap<>();
    private final Map<Integer, Long> throttles = new HashMap<>();
    private final Map<Integer, SegmentCompleted.Check> checks = new HashMap<>();
    private Diff diff;
    private RestorePlanned.Conflicts conflicts;

    void progressed(SegmentProgressed e) {
        if (completed.containsKey(e.segment())) {
            return;
        }
        inFlight.put(e.segment(), SegmentCounts.written(e.itemsWritten(), e.bytesWritten()));
        if (e.wcuConsumed() != null) {
            wcu.put(e.segment(), e.wcuConsumed());
        }
        if (e.throttles() != null) {
            throttles.merge(e.segment(), e.throttles(), Math::max);
        }
    }

    void completed(SegmentCompleted e) {
        inFlight.remove(e.segment());
        if (completed.containsKey(e.segment())) {
            return;
        }
        wcu.put(e.segment(), e.wcuConsumed());
        completed.put(e.segment(), SegmentCounts.of(e));
        if (e.check() != null) {
            checks.put(e.segment(), e.check());
        }
        if (e.diff() != null) {
            diff = (diff == null ? Diff.empty() : diff).plus(e.diff());
        }
        if (e.conflicts() != null) {
            conflicts = conflicts == null ? e.conflicts() : conflicts.plus(e.conflicts());
        }
    }

    /** The conflicts a strict undo's writers found, or {@code null} when none did. */
    RestorePlanned.Conflicts conflicts() {
        return conflicts;
    }

    void cancelled(SegmentCancelled e) {
        if (!completed.containsKey(e.segment())) {
            inFlight.remove(e.segment());
            cancelled.putIfAbsent(e.segment(), SegmentCounts.written(e.itemsWritten(), e.bytesWritten()));
        }
    }

    void failed(SegmentFailed e) {
        failed.put(e.segment(), e.reason());
    }

    /** The whole restore's diff, which the end event reports, replaces the sum of the segments'. */
    void endedWith(Diff whole) {
        if (whole != null) {
            diff = whole;
        }
    }

    Map<Integer, SegmentCounts> completed() {
        return Collections.unmodifiableMap(completed);
    }

    Map<Integer, SegmentCounts> cancelled() {
        return Collections.unmodifiableMap(cancelled);
    }

    Map<Integer, String> failed() {
        return Collections.unmodifiableMap(failed);
    }

    Map<Integer, SegmentCompleted.Check> checks() {
        return Collections.unmodifiableMap(checks);
    }

    Diff diff() {
        return diff;
    }

    /** A count of the completed segments' lines. */
    long sumOfCompleted(ToLongFunction<SegmentCompleted.Counts> count) {
        long sum = 0;
        for (SegmentCounts c : completed.values()) {
            sum += count.applyAsLong(c.lines());
        }
        return sum;
    }

    /** Items written by completed, in-flight and cancelled segments. */
    long itemsWritten() {
        long sum = 0;
        for (var segments : List.of(completed, inFlight, cancelled)) {
            for (SegmentCounts c : segments.values()) {
                sum += c.lines().written();
            }
        }
        return sum;
    }

    /** Bytes written by completed and cancelled segments. */
    long bytesWritten() {
        long sum = 0;
        for (var segments : List.of(completed, cancelled)) {
            for (SegmentCounts c : segments.values()) {
                sum += c.bytesWritten();
            }
        }
        return sum;
    }

    long wcuConsumed() {
        return wcu.values().stream().mapToLong(Long::longValue).sum();
    }

    long throttles() {
        return throttles.values().stream().mapToLong(Long::longValue).sum();
    }
}
