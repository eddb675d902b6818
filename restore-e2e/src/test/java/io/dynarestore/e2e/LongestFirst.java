package io.dynarestore.e2e;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.ClassDescriptor;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.ClassOrdererContext;

/**
 * Orders the end-to-end classes so that the ones that take longest start first and the module does
 * not end with one long class running alone on an idle machine.
 *
 * <p>The classes run {@code e2e.classes} at once on JUnit's fork-join pool, which does not take them
 * in list order: the worker that forks them runs them from the end of the list backwards, and the
 * others take them from its start. So the longest go to both ends (one in {@code workers} to the end,
 * the others to the start) and the shortest to the middle. The weights are the seconds each class took
 * in a CI run beside the rest of the build; a class not listed counts as short.
 */
final class LongestFirst implements ClassOrderer {

    /** Seconds each class took in a CI run (three at once, beside the chaos suite and local-stack). */
    static final Map<String, Integer> SECONDS = Map.ofEntries(
            Map.entry("WriterCrashIT", 444),
            Map.entry("WriterScaleIT", 237),
            Map.entry("WriterResilienceIT", 236),
            Map.entry("UndoWindowIT", 145),
            Map.entry("PitrRestoreIT", 127),
            Map.entry("AuthorizationIT", 115),
            Map.entry("ProtectionIT", 97),
            Map.entry("FullRestoreIT", 79),
            Map.entry("InputFuzzIT", 75),
            Map.entry("BacktrackIT", 74),
            Map.entry("UndoableRestoresIT", 53),
            Map.entry("CapacityIT", 43),
            Map.entry("ProgressAndCancelIT", 39),
            Map.entry("RequestsIT", 27),
            Map.entry("EmailDeliveryIT", 25),
            Map.entry("RecordRestoreIT", 17),
            Map.entry("JwtAuthIT", 16),
            Map.entry("TableOptionsIT", 15),
            Map.entry("WebPageIT", 14),
            Map.entry("CrossAccountIT", 13));

    @Override
    public void orderClasses(ClassOrdererContext context) {
        int workers = context.getConfigurationParameter("junit.jupiter.execution.parallel.config.fixed.parallelism")
                .map(Integer::parseInt)
                .orElse(1);
        List<ClassDescriptor> byLength = new ArrayList<>(context.getClassDescriptors());
        byLength.sort(Comparator.comparingInt(LongestFirst::seconds)
                .reversed()
                .thenComparing(d -> d.getTestClass().getName()));
        var position = new HashMap<ClassDescriptor, Integer>();
        for (ClassDescriptor d : arranged(byLength, workers)) {
            position.put(d, position.size());
        }
        context.getClassDescriptors().sort(Comparator.comparingInt(position::get));
    }

    /** {@code byLength} (longest first) laid out for {@code workers}: see the class comment. */
    static <T> List<T> arranged(List<T> byLength, int workers) {
        if (workers <= 1) {
            return byLength;
        }
        var front = new ArrayList<T>();
        var back = new ArrayList<T>();
        for (int rank = 0; rank < byLength.size(); rank++) {
            (rank % workers == workers - 1 ? back : front).add(byLength.get(rank));
        }
        var arranged = new ArrayList<>(front);
        for (int i = back.size() - 1; i >= 0; i--) {
            arranged.add(back.get(i));
        }
        return arranged;
    }

    private static int seconds(ClassDescriptor descriptor) {
        return SECONDS.getOrDefault(descriptor.getTestClass().getSimpleName(), 0);
    }
}
