package io.dynarestore.api.activity;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToLongFunction;

/**
 * Flags the steps of a timeline that stand out from the table's own recent pattern: deletes or
 * overwrites at least {@link #FACTOR} times the median of the {@link #TRAILING} steps before (and at
 * least {@link #MIN_COUNT}), or one attribute changed by most ({@link #MOST}) of a step's overwrites,
 * that many times its own trailing median. A step is judged only with {@link #MIN_HISTORY} steps
 * before it. Consecutive flagged steps are one run; its restore point is the last second before it.
 */
final class AnomalyDetector {

    static final int TRAILING = 30;
    static final int MIN_HISTORY = 5;
    static final long FACTOR = 10;
    static final long MIN_COUNT = 10;
    static final double MOST = 0.8;

    enum Signal {
        MASS_DELETE,
        MASS_OVERWRITE,
        ATTRIBUTE_REWRITE
    }

    /** A run of flagged steps, [first, last], with what stood out in them. */
    record Flag(int first, int last, Set<Signal> signals, List<String> reasons) {}

    /** The runs of flagged steps among {@code steps} from index {@code firstJudged} on (those before are history). */
    List<Flag> flags(List<Step> steps, int firstJudged) {
        var flags = new ArrayList<Flag>();
        Flag open = null;
        for (int s = Math.max(firstJudged, MIN_HISTORY); s < steps.size(); s++) {
            var trailing = steps.subList(Math.max(0, s - TRAILING), s);
            var signals = EnumSet.noneOf(Signal.class);
            var reasons = new ArrayList<String>();
            judge(steps.get(s), trailing, signals, reasons);
            if (signals.isEmpty()) {
                open = null;
                continue;
            }
            if (open != null && open.last() == s - 1) {
                open.signals().addAll(signals);
                open.reasons().addAll(reasons);
                open = new Flag(open.first(), s, open.signals(), open.reasons());
                flags.set(flags.size() - 1, open);
            } else {
                open = new Flag(s, s, signals, reasons);
                flags.add(open);
            }
        }
        return flags;
    }

    private static void judge(Step step, List<Step> trailing, Set<Signal> signals, List<String> reasons) {
        long deleteMedian = median(trailing, st -> st.deletes);
        if (standsOut(step.deletes, deleteMedian)) {
            signals.add(Signal.MASS_DELETE);
            reasons.add(step.deletes + " deletes, against a median of " + deleteMedian + " in the steps before");
        }
        var rewritten = mostRewritten(step);
        if (rewritten != null && step.overwrites >= MIN_COUNT && rewritten.getValue() >= MOST * step.overwrites) {
            long median = median(trailing, st -> st.rewrites(rewritten.getKey()));
            if (standsOut(rewritten.getValue(), median)) {
                signals.add(Signal.ATTRIBUTE_REWRITE);
                reasons.add("attribute " + rewritten.getKey() + " changed by " + rewritten.getValue() + " of "
                        + step.overwrites + " overwrites, against a median of " + median + " in the steps before");
                return;
            }
        }
        long overwriteMedian = median(trailing, st -> st.overwrites);
        if (standsOut(step.overwrites, overwriteMedian)) {
            signals.add(Signal.MASS_OVERWRITE);
            reasons.add(
                    step.overwrites + " overwrites, against a median of " + overwriteMedian + " in the steps before");
        }
    }

    private static boolean standsOut(long count, long median) {
        return count >= MIN_COUNT && count >= FACTOR * Math.max(1, median);
    }

    private static Map.Entry<String, Long> mostRewritten(Step step) {
        return step.rewrites.entrySet().stream()
                .max(Map.Entry.comparingByValue())
                .orElse(null);
    }

    static long median(List<Step> steps, ToLongFunction<Step> count) {
        if (steps.isEmpty()) {
            return 0;
        }
        long[] values = steps.stream().mapToLong(count).toArray();
        Arrays.sort(values);
        return values[values.length / 2];
    }
}
