package io.dynarestore.core.restore;

import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.contracts.request.Source;
import io.dynarestore.contracts.status.RejectionCode;
import io.dynarestore.contracts.status.RestoreRejected.FieldError;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.vault.Backup;
import io.dynarestore.core.vault.SnapMetadata;
import io.dynarestore.core.vault.VaultCatalog;
import io.dynarestore.core.webhooks.WebhookAddresses;
import java.time.Clock;
import java.time.Instant;
import java.util.List;

/**
 * Checks a (defaulted) request against the world before anything is changed, in this order: its
 * shape ({@link RequestShape}), the account registry, then a Snap ({@link SnapCheck}) or the
 * vault ({@link SourceCheck}), then the destination ({@link DestinationCheck}). restore-api and
 * the planner run the same checks, so a request is judged the same way on REST and on Kafka.
 */
public final class RestoreValidator {

    private final AwsClients aws;
    private final WebhookAddresses webhooks;
    private final SourceCheck sources;
    private final SnapCheck snaps;
    private final DestinationCheck destinations;

    /**
     * @param webhooks         where webhooks may go (the same rule the notifier applies when it delivers)
     * @param maxCapacityUnits the most read or write capacity units a new table (or one of its GSIs) may get
     */
    public RestoreValidator(
            VaultCatalog catalog, AwsClients aws, Clock clock, WebhookAddresses webhooks, long maxCapacityUnits) {
        this.aws = aws;
        this.webhooks = webhooks;
        this.sources = new SourceCheck(catalog, clock);
        this.destinations = new DestinationCheck(aws, maxCapacityUnits);
        this.snaps = new SnapCheck(catalog, aws, clock, destinations);
    }

    /** The first check the request fails, or {@link Verdict.Ok} with what it restores from. */
    public Verdict check(RestoreRequested request) {
        Verdict shape = RequestShape.check(request, webhooks);
        if (shape != null) {
            return shape;
        }
        Source source = request.source();
        if (!aws.allows(source.account(), source.region())) {
            return Verdict.problem(
                    RejectionCode.UNKNOWN_ACCOUNT,
                    "/source",
                    "Account " + source.account()
                            + " region " + source.region()
                            + " is not in the account registry; use a registered account "
                            + "and region.");
        }
        Target target = Target.of(request);
        if (!aws.allows(target.account(), target.region())) {
            return Verdict.problem(
                    RejectionCode.UNKNOWN_ACCOUNT,
                    "/destination",
                    "Account " + target.account()
                            + " region " + target.region()
                            + " is not in the account registry; use a registered account and region.");
        }
        if (source.kind() == Source.Kind.SNAP) {
            return snaps.check(request, target);
        }
        Verdict resolved = sources.check(request);
        if (!(resolved instanceof Verdict.Ok ok) || request.destination() instanceof Destination.File) {
            return resolved; // a file goes to the vault: no table is touched
        }
        return destinations.check(request, target, ok.backup(), ok.pointInTime());
    }

    /** The account, region and name of the table a restore writes into (in place: its source). */
    public record Target(String account, String region, String tableName) {
        public static Target of(RestoreRequested request) {
            Destination destination = request.destination();
            if (destination instanceof Destination.NewTable t) {
                return new Target(t.account(), t.region(), t.tableName());
            }
            if (destination instanceof Destination.ExistingTable t) {
                return new Target(t.account(), t.region(), t.tableName());
            }
            if (destination instanceof Destination.InPlace || destination instanceof Destination.File) {
                // in place writes back into the source; a file names the table it came from
                var s = request.source();
                return new Target(s.account(), s.region(), s.table());
            }
            throw new IllegalArgumentException("not a table destination: " + destination);
        }
    }

    /** The outcome of the checks. */
    public sealed interface Verdict permits Verdict.Ok, Verdict.Problem {

        /**
         * The request can be carried out from {@code backup} (for a point-in-time request, the base
         * backup of {@code pointInTime}, the second it resolved to), or from {@code snap} for a
         * Snap restore; the table may exist already.
         */
        record Ok(Backup backup, SnapMetadata snap, boolean destinationExists, Instant pointInTime)
                implements Verdict {}

        record Problem(RejectionCode code, String reason, List<FieldError> errors) implements Verdict {}

        /** A problem with one field: the reason names it and says what to do instead. */
        static Verdict problem(RejectionCode code, String field, String reason) {
            return new Problem(code, reason, List.of(new FieldError(field, reason)));
        }
    }
}
