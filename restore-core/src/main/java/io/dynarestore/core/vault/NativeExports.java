package io.dynarestore.core.vault;

import java.time.Instant;
import java.util.List;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.Tag;

/**
 * Registers a native DynamoDB export (FULL_EXPORT or INCREMENTAL_EXPORT, DYNAMODB_JSON) where it
 * lies, without copying its data: a full export becomes a backup of the table, an incremental one
 * becomes point-in-time coverage. Only a small {@code backup.json} or {@code export.json} with the
 * export's location is written to the vault.
 */
public final class NativeExports {

    private final VaultCatalog catalog;

    public NativeExports(VaultCatalog catalog) {
        this.catalog = catalog;
    }

    /** What a registration made. */
    public record Registered(String kind, String id, Instant takenAt, Instant from, Instant to, long itemCount,
                             String location, boolean alreadyRegistered) {
    }

    /** The summary manifest at {@code location}, or a {@link RegistrationException} saying what is wrong. */
    public ManifestSummary summary(ExportLocation location) {
        ManifestSummary summary = catalog.read(location.bucket(), location.prefix() + VaultLayout.MANIFEST_SUMMARY,
                ManifestSummary.class).orElseThrow(() -> new RegistrationException("There is no "
                + VaultLayout.MANIFEST_SUMMARY + " at " + location.uri() + "; give the export's own folder, such as "
                + "s3://bucket/prefix/AWSDynamoDB/<ExportId>/, which DynamoDB wrote when the export completed."));
        if (summary.outputFormat() != null && !ManifestSummary.DYNAMODB_JSON.equals(summary.outputFormat())) {
            throw new RegistrationException("The export at " + location.uri() + " is in " + summary.outputFormat()
                    + "; only DYNAMODB_JSON exports can be restored. Export again with ExportFormat DYNAMODB_JSON.");
        }
        return summary;
    }

    /**
     * @param table     the table's description (a full export needs it: the export lacks it)
     * @param tags      the table's tags, kept with a full export
     * @param expiresAt when a full export stops being restorable, or {@code null} for never
     */
    public Registered register(ExportLocation location, String account, String region, String tableName,
                               TableDescription table, List<Tag> tags, Instant expiresAt) {
        ManifestSummary summary = summary(location);
        String id = exportId(summary, location);
        long items = summary.itemCount() == null ? 0 : summary.itemCount();
        VaultLayout layout = catalog.layout();
        if (ManifestSummary.INCREMENTAL_EXPORT.equals(summary.exportType())) {
            if (summary.exportFromTime() == null || summary.exportToTime() == null) {
                throw new RegistrationException("The incremental export at " + location.uri()
                        + " has no exportFromTime/exportToTime in its summary manifest.");
            }
            String key = layout.exportPrefix(account, region, tableName, id) + VaultLayout.EXPORT_JSON;
            var existing = catalog.read(layout.bucket(), key, ExportMetadata.class);
            var metadata = existing.orElseGet(() -> new ExportMetadata(ExportMetadata.FORMAT_VERSION, id, account,
                    region, tableName, Instant.parse(summary.exportFromTime()), Instant.parse(summary.exportToTime()),
                    true, items, location));
            if (existing.isEmpty()) {
                catalog.put(key, metadata);
            }
            return new Registered("INCREMENTAL", id, null, metadata.from(), metadata.to(), items, location.uri(),
                    existing.isPresent());
        }
        if (table == null) {
            throw new RegistrationException("A full export does not describe its table; give tableDescription (the "
                    + "Table member of 'aws dynamodb describe-table'), or register it while the table exists.");
        }
        String key = layout.backupPrefix(account, region, tableName, id) + VaultLayout.BACKUP_JSON;
        var existing = catalog.read(layout.bucket(), key, BackupMetadata.class);
        Instant takenAt = Instant.parse(summary.exportTime() != null ? summary.exportTime() : summary.startTime());
        if (existing.isEmpty()) {
            catalog.put(key, BackupMetadata.of(id, takenAt, expiresAt, account, region, table, tags, null, null)
                    .at(location));
        }
        return new Registered("FULL", id, takenAt, null, null, items, location.uri(), existing.isPresent());
    }

    /** The export's id: the last part of its ARN, else its folder's name. */
    static String exportId(ManifestSummary summary, ExportLocation location) {
        String arn = summary.exportArn();
        if (arn != null && arn.contains("/export/")) {
            return arn.substring(arn.lastIndexOf('/') + 1);
        }
        String p = location.prefix().endsWith("/") ? location.prefix().substring(0, location.prefix().length() - 1)
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
