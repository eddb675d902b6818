package io.dynarestore.api.catalog;

import io.dynarestore.contracts.BackupIds;
import io.dynarestore.core.vault.BackupMetadata;
import io.dynarestore.core.vault.ExportLocation;
import io.dynarestore.core.vault.ExportMetadata;
import io.dynarestore.core.vault.ManifestSummary;
import io.dynarestore.core.vault.VaultCatalog;
import io.dynarestore.core.vault.VaultLayout;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.Tag;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Registers a native DynamoDB export (FULL_EXPORT or INCREMENTAL_EXPORT, DYNAMODB_JSON or ION) where it
 * lies, without copying its data: a full export becomes a backup of the table, an incremental one
 * becomes point-in-time coverage. Only a small {@code backup.json} or {@code export.json} with the
 * export's location is written to the vault.
 *
 * <p>Rules, since what is registered is what later restores (in place included) take as the
 * table's history: the export lies in one of the configured export locations and never under the
 * vault's own root; its manifest's {@code tableArn} is the target table's (partition aside: the
 * same account, region and name) and its {@code exportArn}, when given, is an export of that
 * table; its id passes {@link BackupIds}; a full export without an expiry expires after the
 * configured retention.
 */
public final class NativeExports {

    private final VaultCatalog catalog;
    private final List<String> allowedLocations;
    private final Duration retention;

    /**
     * @param allowedLocations buckets ({@code exports}) or bucket prefixes ({@code exports/AWSDynamoDB/})
     *                         where exports may be registered from
     * @param retention        how long a full export registered without {@code expiresAt} stays restorable
     */
    public NativeExports(VaultCatalog catalog, List<String> allowedLocations, Duration retention) {
        this.catalog = catalog;
        this.allowedLocations = List.copyOf(allowedLocations);
        this.retention = retention;
    }

    /** Why exports may not be registered from {@code location}, or {@code null}. */
    String locationRefusal(ExportLocation location) {
        VaultLayout layout = catalog.layout();
        if (location.bucket().equals(layout.bucket()) && location.prefix().startsWith(layout.root())) {
            return "s3://" + location.bucket() + "/" + layout.root() + " is the vault itself; register exports from "
                    + "where DynamoDB wrote them";
        }
        String where = location.bucket() + "/" + location.prefix();
        for (String allowed : allowedLocations) {
            String a = allowed.startsWith("s3://") ? allowed.substring(5) : allowed;
            if (where.equals(a) || where.startsWith(a.endsWith("/") ? a : a + "/")) {
                return null;
            }
        }
        return allowedLocations.isEmpty()
                ? "no export locations are configured (api.exports.allowed-locations); an "
                        + "operator lists the buckets DynamoDB exports into"
                : location.uri() + " is not in the configured export locations (" + String.join(", ", allowedLocations)
                        + "); an operator adds the bucket to api.exports.allowed-locations";
    }

    /** Why the export summarized by {@code summary} is not one of table {@code tableName}, or {@code null}. */
    static String tableRefusal(ManifestSummary summary, String account, String region, String tableName) {
        String expected = ":dynamodb:" + region + ":" + account + ":table/" + tableName;
        String arn = summary.tableArn();
        if (arn == null || !arn.matches("arn:aws[a-z-]*:dynamodb:[a-z0-9-]+:[0-9]{12}:table/[A-Za-z0-9_.-]{3,255}")) {
            return "its manifest names no table (tableArn " + (arn == null ? "missing" : "'" + arn + "'")
                    + "); only an " + "export DynamoDB wrote can be registered";
        }
        if (!arn.substring(arn.indexOf(':', 4)).equals(expected)) {
            return "it is an export of " + arn + ", not of table " + tableName + " in account " + account + " region "
                    + region + "; register it under its own table, account and region";
        }
        String exportArn = summary.exportArn();
        if (exportArn != null && !exportArn.startsWith(arn + "/export/")) {
            return "its exportArn " + exportArn + " is not an export of " + arn;
        }
        return null;
    }

    /** What a registration made. */
    public record Registered(
            String kind,
            String id,
            Instant takenAt,
            Instant from,
            Instant to,
            long itemCount,
            String location,
            boolean alreadyRegistered) {}

    /**
     * The summary manifest at {@code location}, read only where exports may be registered from,
     * or a {@link RegistrationException} saying what is wrong.
     */
    public ManifestSummary summary(ExportLocation location) {
        String refused = locationRefusal(location);
        if (refused != null) {
            throw new RegistrationException("The export cannot be registered: " + refused + ".");
        }
        Optional<ManifestSummary> read;
        try {
            read = catalog.read(
                    location.bucket(), location.prefix() + VaultLayout.MANIFEST_SUMMARY, ManifestSummary.class);
        } catch (S3Exception e) {
            throw new RegistrationException(
                    "The export at " + location.uri() + " cannot be read (S3 answered " + e.statusCode()
                            + "); give this installation s3:GetObject and s3:ListBucket on the export bucket.");
        } catch (RuntimeException e) {
            throw new RegistrationException("The " + VaultLayout.MANIFEST_SUMMARY + " at " + location.uri()
                    + " is not an export manifest DynamoDB wrote: " + e.getMessage());
        }
        ManifestSummary summary = read.orElseThrow(() -> new RegistrationException("There is no "
                + VaultLayout.MANIFEST_SUMMARY + " at " + location.uri() + "; give the export's own folder, such as "
                + "s3://bucket/prefix/AWSDynamoDB/<ExportId>/, which DynamoDB wrote when the export completed."));
        if (summary.outputFormat() != null
                && !ManifestSummary.DYNAMODB_JSON.equals(summary.outputFormat())
                && !ManifestSummary.ION.equals(summary.outputFormat())) {
            throw new RegistrationException("The export at " + location.uri() + " is in " + summary.outputFormat()
                    + "; only DYNAMODB_JSON and ION exports can be restored. Export again with ExportFormat "
                    + "DYNAMODB_JSON or ION.");
        }
        return summary;
    }

    /**
     * @param summary   the export's summary manifest, as {@link #summary} read it
     * @param table     the table's description (a full export needs it: the export lacks it)
     * @param tags      the table's tags, kept with a full export
     * @param expiresAt when a full export stops being restorable, or {@code null} for never
     */
    public Registered register(
            ExportLocation location,
            ManifestSummary summary,
            String account,
            String region,
            String tableName,
            TableDescription table,
            List<Tag> tags,
            Instant expiresAt) {
        String notThisTable = tableRefusal(summary, account, region, tableName);
        if (notThisTable != null) {
            throw new RegistrationException(
                    "The export at " + location.uri() + " cannot be registered: " + notThisTable + ".");
        }
        String id = exportId(summary, location);
        if (!BackupIds.valid(id)) {
            throw new RegistrationException(
                    "The export at " + location.uri() + " has the id '" + id + "', which is not "
                            + "an id DynamoDB gives (letters, digits, '_', '.', ':', '-'); it cannot name a backup.");
        }
        long items = summary.itemCount() == null ? 0 : summary.itemCount();
        var where = new Where(location, account, region, tableName, id, items);
        if (ManifestSummary.INCREMENTAL_EXPORT.equals(summary.exportType())) {
            return registerIncremental(where, summary);
        }
        return registerFull(where, summary, table, tags, expiresAt);
    }

    /** The export being registered: where it lies, whose it is, its id and its item count. */
    private record Where(
            ExportLocation location, String account, String region, String tableName, String id, long items) {}

    private Registered registerIncremental(Where w, ManifestSummary summary) {
        if (summary.exportFromTime() == null || summary.exportToTime() == null) {
            throw new RegistrationException("The incremental export at "
                    + w.location().uri() + " has no exportFromTime/exportToTime in its summary manifest.");
        }
        VaultLayout layout = catalog.layout();
        String key = layout.exportPrefix(w.account(), w.region(), w.tableName(), w.id()) + VaultLayout.EXPORT_JSON;
        var existing = catalog.read(layout.bucket(), key, ExportMetadata.class);
        var metadata = existing.orElseGet(() -> new ExportMetadata(
                ExportMetadata.FORMAT_VERSION,
                w.id(),
                w.account(),
                w.region(),
                w.tableName(),
                time("exportFromTime", summary.exportFromTime()),
                time("exportToTime", summary.exportToTime()),
                true,
                w.items(),
                w.location()));
        if (existing.isEmpty()) {
            catalog.put(key, metadata);
        }
        return new Registered(
                "INCREMENTAL",
                w.id(),
                null,
                metadata.from(),
                metadata.to(),
                w.items(),
                w.location().uri(),
                existing.isPresent());
    }

    private Registered registerFull(
            Where w, ManifestSummary summary, TableDescription table, List<Tag> tags, Instant expiresAt) {
        if (table == null) {
            throw new RegistrationException("A full export does not describe its table; give tableDescription (the "
                    + "Table member of 'aws dynamodb describe-table'), or register it while the table exists.");
        }
        VaultLayout layout = catalog.layout();
        String key = layout.backupPrefix(w.account(), w.region(), w.tableName(), w.id()) + VaultLayout.BACKUP_JSON;
        var existing = catalog.read(layout.bucket(), key, BackupMetadata.class);
        Instant takenAt = summary.exportTime() != null
                ? time("exportTime", summary.exportTime())
                : time("startTime", summary.startTime());
        if (existing.isEmpty()) {
            Instant expires = expiresAt != null ? expiresAt : takenAt.plus(retention);
            catalog.put(
                    key,
                    BackupMetadata.of(w.id(), takenAt, expires, w.account(), w.region(), table, tags, null, null)
                            .at(w.location()));
        }
        return new Registered(
                "FULL", w.id(), takenAt, null, null, w.items(), w.location().uri(), existing.isPresent());
    }

    private static Instant time(String field, String value) {
        try {
            return Instant.parse(value);
        } catch (RuntimeException e) {
            throw new RegistrationException("The export's manifest-summary.json has " + field + " '" + value + "', "
                    + "which is not an ISO-8601 time; only an export DynamoDB wrote can be registered.");
        }
    }

    /** The export's id: the last part of its ARN, else its folder's name. */
    static String exportId(ManifestSummary summary, ExportLocation location) {
        String arn = summary.exportArn();
        if (arn != null && arn.contains("/export/")) {
            return arn.substring(arn.lastIndexOf('/') + 1);
        }
        String p = location.prefix().endsWith("/")
                ? location.prefix().substring(0, location.prefix().length() - 1)
                : location.prefix();
        return p.substring(p.lastIndexOf('/') + 1);
    }

    /** The export cannot be registered; the message says why and what to do. */
    public static final class RegistrationException extends RuntimeException {
        public RegistrationException(String message) {
            super(message);
        }
    }
}
