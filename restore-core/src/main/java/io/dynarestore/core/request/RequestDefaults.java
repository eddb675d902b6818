package io.dynarestore.core.request;

import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.contracts.request.Source;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.UUID;

/**
 * Fills in what a request may leave out, the same way wherever it is read, so that restore-api
 * and the planner agree: ids and time, the source's account and region, the destination's
 * account and region (the source's), and a new table's name,
 * {@code Restored-<source>-<yyyyMMddHHmmss>} (UTC, from the request's time, so that a retried
 * request names the same table).
 */
public final class RequestDefaults {

    private static final DateTimeFormatter SUFFIX =
            DateTimeFormatter.ofPattern("yyyyMMddHHmmss").withZone(ZoneOffset.UTC);

    private RequestDefaults() {}

    public static RestoreRequested apply(
            RestoreRequested request,
            String defaultAccount,
            String defaultRegion,
            String fallbackRestoreId,
            Instant now) {
        RestoreRequested r = request.normalized(
                fallbackRestoreId != null
                        ? fallbackRestoreId
                        : UUID.randomUUID().toString(),
                UUID.randomUUID().toString(),
                now);
        Source s = r.source();
        Source source = new Source(
                s.account() != null ? s.account() : defaultAccount,
                s.region() != null ? s.region() : defaultRegion,
                s.table(),
                s.backupId(),
                s.pointInTime(),
                s.snapId(),
                s.undo());
        Destination destination = r.destination();
        if (destination instanceof Destination.NewTable t) {
            destination = new Destination.NewTable(
                    t.account() != null ? t.account() : source.account(),
                    t.region() != null ? t.region() : source.region(),
                    t.tableName() != null ? t.tableName() : defaultTableName(source.table(), r.occurredAt()),
                    t.options());
        } else if (destination instanceof Destination.ExistingTable t) {
            destination = new Destination.ExistingTable(
                    t.account() != null ? t.account() : source.account(),
                    t.region() != null ? t.region() : source.region(),
                    t.tableName());
        }
        return new RestoreRequested(
                r.restoreId(),
                r.type(),
                r.schemaVersion(),
                r.eventId(),
                r.occurredAt(),
                r.requestedBy(),
                source,
                r.scope(),
                destination,
                r.notification(),
                r.dryRun());
    }

    static String defaultTableName(String source, Instant at) {
        String suffix = "-" + SUFFIX.format(at);
        String prefix = "Restored-";
        int room = 255 - prefix.length() - suffix.length();
        return prefix + (source.length() > room ? source.substring(0, room) : source) + suffix;
    }
}
