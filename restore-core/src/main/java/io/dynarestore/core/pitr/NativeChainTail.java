package io.dynarestore.core.pitr;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

/**
 * The tail export of a native incremental change log that a restore asks for (ADR 0033), one rule
 * for the protector, which exports it, and the planner, which waits for it. Rule: from the chain's
 * end to the restore's acceptance, or to the table's latest restorable second if that is earlier,
 * in whole seconds; only when that window is at least DynamoDB's shortest incremental export
 * (15 minutes) and the chain's end is still inside the recovery window.
 */
public final class NativeChainTail {

    /** The ids of the exports of a native incremental chain start so ({@code stream-} for a Streams capture). */
    public static final String EXPORT_ID_PREFIX = "native-";

    private NativeChainTail() {}

    /** Where the tail export ends, or empty when no tail export can be taken. */
    public static Optional<Instant> end(
            Instant chainEnd, Instant target, Instant earliest, Instant latest, Duration shortest) {
        if (chainEnd == null || target == null || latest == null || (earliest != null && chainEnd.isBefore(earliest))) {
            return Optional.empty();
        }
        Instant to = (target.isBefore(latest) ? target : latest).truncatedTo(ChronoUnit.SECONDS);
        return Duration.between(chainEnd, to).compareTo(shortest) < 0 ? Optional.empty() : Optional.of(to);
    }
}
