package io.dynarestore.core.vault;

import io.dynarestore.contracts.Json;
import io.dynarestore.core.codec.DynamoJson;
import io.dynarestore.core.codec.ItemSize;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.Tag;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveDescription;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Writes a full backup in DynamoDB's FULL_EXPORT layout. Items go through {@link Part}s (one per
 * writing thread) into {@link DataFiles}, cut every {@code itemsPerFile} items.
 * {@link #finish} writes the manifests and, last, {@code backup.json}.
 */
public final class BackupWriter {

    private final VaultLayout layout;
    private final String account;
    private final String region;
    private final String table;
    private final String backupId;
    private final String prefix;
    private final DataFiles data;
    private final Instant startedAt = Instant.now();
    private final AtomicLong items = new AtomicLong();
    private final AtomicLong itemBytes = new AtomicLong();
    private final AtomicLong writeUnits = new AtomicLong();

    public BackupWriter(S3Client s3, VaultLayout layout, String account, String region, String table, String backupId,
                        int itemsPerFile) {
        this.layout = layout;
        this.account = account;
        this.region = region;
        this.table = table;
        this.backupId = backupId;
        this.prefix = layout.backupPrefix(account, region, table, backupId);
        this.data = new DataFiles(s3, layout.bucket(), prefix, itemsPerFile);
    }

    /** A writer of data files for one thread. Close it to upload its last file. */
    public Part openPart() {
        return new Part(data.openPart());
    }

    public long itemCount() {
        return items.get();
    }

    /**
     * Writes the manifests and {@code backup.json}; the backup exists from then on. Data files
     * are listed in the order of their keys, so that segment numbers are stable.
     */
    public Backup finish(TableDescription description, List<Tag> tags, TimeToLiveDescription ttl, Instant takenAt,
                         Instant expiresAt) {
        String manifestFilesKey = data.writeManifest();
        String tableArn = "arn:aws:dynamodb:" + region + ":" + account + ":table/" + table;
        var summary = new ManifestSummary("2020-06-30", tableArn + "/export/" + backupId,
                startedAt.toString(), Instant.now().toString(), tableArn, description.tableId(), takenAt.toString(),
                null, null, layout.bucket(), prefix, "AES256", null, manifestFilesKey, itemBytes.get(), items.get(),
                ManifestSummary.DYNAMODB_JSON, null, ManifestSummary.FULL_EXPORT);
        data.put(prefix + VaultLayout.MANIFEST_SUMMARY, Json.toBytes(summary), "application/json");

        var metadata = BackupMetadata.of(backupId, takenAt, expiresAt, account, region, description, tags, ttl,
                writeUnits.get());
        data.put(prefix + VaultLayout.BACKUP_JSON, Json.toBytes(metadata), "application/json");
        return new Backup(layout, metadata, summary, data.files());
    }

    /** Writes items for one thread; not thread-safe. */
    public final class Part implements AutoCloseable {
        private final DataFiles.Part lines;

        private Part(DataFiles.Part lines) {
            this.lines = lines;
        }

        public void write(Map<String, AttributeValue> item) {
            lines.write(g -> {
                g.writeStartObject();
                g.writeName("Item");
                DynamoJson.writeItem(g, item);
                g.writeEndObject();
            });
            long size = ItemSize.of(item);
            items.incrementAndGet();
            itemBytes.addAndGet(size);
            writeUnits.addAndGet(ItemSize.wcu(size));
        }

        @Override
        public void close() {
            lines.close();
        }
    }
}
