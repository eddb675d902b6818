package io.dynarestore.core.vault;

import io.dynarestore.contracts.Json;
import io.dynarestore.core.codec.DynamoJson;
import io.dynarestore.core.codec.ItemSize;
import io.dynarestore.core.csv.ConsoleCsv;
import io.dynarestore.core.filter.KeySchema;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ContinuousBackupsDescription;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
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
    private final Map<String, String> lsiSortKeys = new LinkedHashMap<>();
    private final Map<String, AtomicLong> lsiUnits = new ConcurrentHashMap<>();
    /** Every attribute name with its console types, merged from closed parts; null once unknown. */
    private Map<String, Set<String>> attributeTypes = new TreeMap<>();

    private int partsOpen;
    /** The key attributes each line starts with; empty: the item's own order. */
    private List<String> keysFirst = List.of();

    public BackupWriter(
            S3Client s3,
            VaultLayout layout,
            String account,
            String region,
            String table,
            String backupId,
            int itemsPerFile) {
        this.layout = layout;
        this.account = account;
        this.region = region;
        this.table = table;
        this.backupId = backupId;
        this.prefix = layout.backupPrefix(account, region, table, backupId);
        this.data = new DataFiles(s3, layout.bucket(), prefix, itemsPerFile);
    }

    /**
     * Counts, per local secondary index of {@code table}, the write units of the items it projects
     * (those that have its sort key); call before any part is opened.
     */
    public BackupWriter countingIndexesOf(TableDescription table) {
        if (table.hasLocalSecondaryIndexes()) {
            for (var lsi : table.localSecondaryIndexes()) {
                lsi.keySchema().stream()
                        .filter(k -> k.keyType() == KeyType.RANGE)
                        .forEach(k -> lsiSortKeys.put(lsi.indexName(), k.attributeName()));
                lsiUnits.put(lsi.indexName(), new AtomicLong());
            }
        }
        return this;
    }

    /**
     * Writes the key attributes of {@code table} (partition key, then sort key) first in every line, so
     * that a selective reader finds each line's key at its start and crosses none of its other values
     * (ADR 0046); call before any part is opened.
     */
    public BackupWriter keysFirst(TableDescription table) {
        this.keysFirst = List.copyOf(KeySchema.attributeNames(table.keySchema()));
        return this;
    }

    /** A writer of data files for one thread. Close it to upload its last file. */
    public Part openPart() {
        synchronized (this) {
            partsOpen++;
        }
        return new Part(data.openPart());
    }

    public long itemCount() {
        return items.get();
    }

    /**
     * Writes the manifests and {@code backup.json}; the backup exists from then on. Data files
     * are listed in the order of their keys, so that segment numbers are stable.
     */
    public Backup finish(
            TableDescription description,
            List<Tag> tags,
            TimeToLiveDescription ttl,
            Instant takenAt,
            Instant expiresAt) {
        return finish(description, tags, ttl, null, takenAt, expiresAt);
    }

    public Backup finish(
            TableDescription description,
            List<Tag> tags,
            TimeToLiveDescription ttl,
            ContinuousBackupsDescription continuous,
            Instant takenAt,
            Instant expiresAt) {
        return finish(description, tags, ttl, continuous, takenAt, expiresAt, null);
    }

    /** @param consistentAt when the backup became exact (a Scan's end), or null when it is exact at {@code takenAt} */
    public Backup finish(
            TableDescription description,
            List<Tag> tags,
            TimeToLiveDescription ttl,
            ContinuousBackupsDescription continuous,
            Instant takenAt,
            Instant expiresAt,
            Instant consistentAt) {
        String manifestFilesKey = data.writeManifest();
        String tableArn = "arn:aws:dynamodb:" + region + ":" + account + ":table/" + table;
        var summary = new ManifestSummary(
                "2020-06-30",
                tableArn + "/export/" + backupId,
                startedAt.toString(),
                Instant.now().toString(),
                tableArn,
                description.tableId(),
                takenAt.toString(),
                null,
                null,
                layout.bucket(),
                prefix,
                "AES256",
                null,
                manifestFilesKey,
                itemBytes.get(),
                items.get(),
                ManifestSummary.DYNAMODB_JSON,
                null,
                ManifestSummary.FULL_EXPORT);
        data.put(prefix + VaultLayout.MANIFEST_SUMMARY, Json.toBytes(summary), "application/json");

        var indexUnits = new TreeMap<String, Long>();
        lsiUnits.forEach((index, units) -> indexUnits.put(index, units.get()));
        var metadata = BackupMetadata.of(
                        backupId,
                        takenAt,
                        expiresAt,
                        account,
                        region,
                        description,
                        tags,
                        ttl,
                        continuous,
                        writeUnits.get(),
                        indexUnits)
                .consistentFrom(consistentAt)
                .withAttributeTypes(attributeTypes());
        data.put(prefix + VaultLayout.BACKUP_JSON, Json.toBytes(metadata), "application/json");
        return new Backup(layout, metadata, summary, data.files());
    }

    /**
     * What a part has uploaded: its data files, and the items, bytes and write units in them (per
     * local secondary index too). A resumed Scan adopts it instead of reading those items again.
     */
    public record Uploaded(
            List<ManifestFile> files, long items, long bytes, long writeUnits, Map<String, Long> indexUnits) {
        public static final Uploaded NOTHING = new Uploaded(List.of(), 0, 0, 0, Map.of());
    }

    /** Counts what an earlier attempt uploaded as part of this backup; before any part is opened. */
    public BackupWriter adopt(Uploaded earlier) {
        if (!earlier.files().isEmpty()) {
            forgetAttributeTypes(); // the earlier attempt's items were not seen here
        }
        data.adopt(earlier.files());
        items.addAndGet(earlier.items());
        itemBytes.addAndGet(earlier.bytes());
        writeUnits.addAndGet(earlier.writeUnits());
        earlier.indexUnits().forEach((index, units) -> {
            AtomicLong counter = lsiUnits.get(index);
            if (counter != null) {
                counter.addAndGet(units);
            }
        });
        return this;
    }

    private synchronized void forgetAttributeTypes() {
        attributeTypes = null;
    }

    private synchronized void merge(Map<String, Set<String>> seen, boolean complete) {
        partsOpen--;
        if (attributeTypes == null) {
            return;
        }
        if (!complete) {
            attributeTypes = null;
            return;
        }
        seen.forEach((name, types) ->
                attributeTypes.computeIfAbsent(name, n -> new TreeSet<>()).addAll(types));
        if (attributeTypes.values().stream().mapToInt(Set::size).sum() > BackupMetadata.MAX_ATTRIBUTE_TYPES) {
            attributeTypes = null;
        }
    }

    /** The attribute types of every item, when every part was closed and each saw all of its items. */
    private synchronized Map<String, List<String>> attributeTypes() {
        if (attributeTypes == null || partsOpen != 0) {
            return null;
        }
        var types = new TreeMap<String, List<String>>();
        attributeTypes.forEach((name, t) -> types.put(name, List.copyOf(t)));
        return types;
    }

    /** Writes items for one thread; not thread-safe. */
    public final class Part implements AutoCloseable {
        private final DataFiles.Part lines;
        /** What the open file holds, and what the uploaded files hold. */
        private final long[] open = new long[3];

        private final long[] uploaded = new long[3];
        private final Map<String, Long> openIndexUnits = new HashMap<>();
        private final Map<String, Long> uploadedIndexUnits = new TreeMap<>();
        /** The attribute names and types of this part's items; null past the bound. */
        private Map<String, Set<String>> seen = new HashMap<>();

        private int pairs;
        private boolean closed;

        private Part(DataFiles.Part lines) {
            this.lines = lines;
        }

        /** Writes one item; returns whether it was the last of a data file, now uploaded. */
        public boolean write(Map<String, AttributeValue> item) {
            boolean cut = lines.write(g -> {
                g.writeStartObject();
                g.writeName("Item");
                DynamoJson.writeItem(g, item, keysFirst);
                g.writeEndObject();
            });
            see(item);
            long size = ItemSize.of(item);
            items.incrementAndGet();
            itemBytes.addAndGet(size);
            long units = ItemSize.wcu(size);
            writeUnits.addAndGet(units);
            open[0]++;
            open[1] += size;
            open[2] += units;
            lsiSortKeys.forEach((index, sortKey) -> {
                if (item.containsKey(sortKey)) {
                    lsiUnits.get(index).addAndGet(units);
                    openIndexUnits.merge(index, units, Long::sum);
                }
            });
            if (cut) {
                openFileUploaded();
            }
            return cut;
        }

        private void see(Map<String, AttributeValue> item) {
            if (seen == null) {
                return;
            }
            for (var e : item.entrySet()) {
                String type = ConsoleCsv.typeOf(e.getValue());
                Set<String> types = seen.get(e.getKey());
                if (types == null) {
                    types = new TreeSet<>();
                    seen.put(e.getKey(), types);
                }
                if (types.add(type) && ++pairs > BackupMetadata.MAX_ATTRIBUTE_TYPES) {
                    seen = null; // too wide to list: the backup has no attribute types
                    return;
                }
            }
        }

        /** The open file is uploaded: what it holds counts as uploaded. */
        private void openFileUploaded() {
            for (int i = 0; i < 3; i++) {
                uploaded[i] += open[i];
                open[i] = 0;
            }
            openIndexUnits.forEach((index, u) -> uploadedIndexUnits.merge(index, u, Long::sum));
            openIndexUnits.clear();
        }

        /** What this part has uploaded so far (not the file still open). */
        public Uploaded uploaded() {
            return new Uploaded(
                    lines.uploaded(), uploaded[0], uploaded[1], uploaded[2], Map.copyOf(uploadedIndexUnits));
        }

        /** Uploads the file still open; {@link #uploaded()} counts it from then on. */
        @Override
        public void close() {
            if (closed) {
                return;
            }
            closed = true;
            int before = lines.uploaded().size();
            lines.close();
            if (lines.uploaded().size() > before) {
                openFileUploaded();
            }
            merge(seen == null ? Map.of() : seen, seen != null);
        }

        /** Drops the file still open, uploading nothing: what a failed Scan read since its checkpoint. */
        public void discard() {
            lines.discard();
            seen = null; // the dropped items' attributes were seen: the backup's are no longer known exactly
        }
    }
}
