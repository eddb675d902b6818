package io.dynarestore.planner.staging;

import io.dynarestore.core.codec.DynamoJson;
import io.dynarestore.core.codec.ItemSize;
import io.dynarestore.core.filter.RecordFilter;
import io.dynarestore.core.pitr.KeyHash;
import io.dynarestore.core.pitr.SkipKeys;
import io.dynarestore.core.vault.Backup;
import io.dynarestore.core.vault.DataFileReader;
import io.dynarestore.core.vault.DataFiles;
import io.dynarestore.core.vault.ExportLine;
import io.dynarestore.core.vault.KeyPrefilter;
import io.dynarestore.core.vault.ManifestFile;
import io.dynarestore.core.vault.VaultCatalog;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Stages the items of a restore by import: exactly the items the restored table must hold, as
 * gzip DYNAMODB_JSON files ({@code {"Item": {...}}} per line, what ImportTable reads) under
 * {@code _staging/<restoreId>/import/data/}, with nothing else under that prefix. The items are
 * the base backup's, less the keys a point-in-time delta changed, plus the delta's final images;
 * a record restore keeps only the images its filter matches. Never more files than ImportTable's
 * quota of 50,000 objects. One pass, streaming: memory holds
 * the delta's key set (16 bytes per key) and one line. Staging again first removes what an
 * earlier attempt left, so an import never sees an item twice.
 */
public final class ImportStager {

    /** DynamoDB's quota of S3 objects one ImportTable reads. */
    static final long MAX_IMPORT_OBJECTS = 50_000;

    private final S3Client s3;
    private final VaultCatalog catalog;
    private final int linesPerFile;

    public ImportStager(S3Client s3, VaultCatalog catalog, int linesPerFile) {
        this.s3 = s3;
        this.catalog = catalog;
        this.linesPerFile = linesPerFile;
    }

    /** What was staged: the prefix to import from, and the items, their bytes and files. */
    public record Staged(String bucket, String prefix, long items, long bytes, int files) {}

    /** The prefix the data files of a restore's import are staged under. */
    public String dataPrefix(String restoreId) {
        return importPrefix(restoreId) + "data/";
    }

    private String importPrefix(String restoreId) {
        return catalog.layout().stagingPrefix(restoreId) + "import/";
    }

    /**
     * @param delta  the staged delta of a point-in-time restore, or {@code null} for a backup
     * @param filter the filter of a record restore, or {@code null} for the whole table
     */
    public Staged stage(
            String restoreId,
            Backup base,
            DeltaStager.StagedDelta delta,
            RecordFilter filter,
            List<String> keyAttributes) {
        String bucket = catalog.layout().bucket();
        discard(restoreId);
        SkipKeys skip = delta == null || delta.keys() == 0
                ? null
                : SkipKeys.read(s3.getObject(b -> b.bucket(delta.bucket()).key(delta.skipKeys())), delta.keys());
        long most = base.files().stream()
                        .mapToLong(f -> f.itemCount() == null ? 0 : f.itemCount())
                        .sum()
                + (delta == null ? 0 : delta.puts());
        var out = new DataFiles(s3, bucket, importPrefix(restoreId), linesPerFile(linesPerFile, most));
        KeyPrefilter.Test wanted = k -> (filter == null || filter.keyMayMatch(k))
                && (skip == null || !skip.contains(KeyHash.of(k, keyAttributes)));
        var baseLines = filter == null && skip == null ? null : KeyPrefilter.ofItems(keyAttributes, wanted);
        var deltaLines = filter == null ? null : KeyPrefilter.ofChanges(keyAttributes, filter::keyMayMatch);
        long items = 0;
        long bytes = 0;
        try (DataFiles.Part part = out.openPart()) {
            for (ManifestFile f : base.files()) {
                try (var reader = open(base.dataBucket(), f, baseLines)) {
                    for (ExportLine line; (line = reader.next()) != null; ) {
                        Map<String, AttributeValue> item = line.item();
                        if (skip != null && skip.contains(KeyHash.of(item, keyAttributes))
                                || filter != null && !filter.matches(item)) {
                            continue;
                        }
                        write(part, item);
                        items++;
                        bytes += ItemSize.of(item);
                    }
                }
            }
            for (ManifestFile f : delta == null ? List.<ManifestFile>of() : delta.files()) {
                try (var reader = open(delta.bucket(), f, deltaLines)) {
                    for (ExportLine line; (line = reader.next()) != null; ) {
                        Map<String, AttributeValue> image = line.newImage();
                        if (image == null || filter != null && !filter.matches(image)) {
                            continue; // deleted by the point in time, or not selected
                        }
                        write(part, image);
                        items++;
                        bytes += ItemSize.of(image);
                    }
                }
            }
        }
        return new Staged(
                bucket, dataPrefix(restoreId), items, bytes, out.files().size());
    }

    /**
     * Items per staged file: the configured number, or more where the import would otherwise read
     * more objects than DynamoDB's quota allows ({@code items} at most are staged).
     */
    static int linesPerFile(int configured, long items) {
        long needed = items / MAX_IMPORT_OBJECTS + (items % MAX_IMPORT_OBJECTS == 0 ? 0 : 1);
        return (int) Math.min(Integer.MAX_VALUE, Math.max(configured, needed));
    }

    /** A data file, the lines whose key {@code prefilter} rejects passed over unparsed. */
    private DataFileReader open(String bucket, ManifestFile f, KeyPrefilter prefilter) {
        var object = s3.getObject(b -> b.bucket(bucket).key(f.dataFileS3Key()));
        return DataFileReader.selective(f.dataFileS3Key(), object, f.md5Checksum(), prefilter);
    }

    private static void write(DataFiles.Part part, Map<String, AttributeValue> item) {
        part.write(g -> {
            g.writeStartObject();
            g.writeName("Item");
            DynamoJson.writeItem(g, item);
            g.writeEndObject();
        });
    }

    /** Removes what was staged for a restore's import. */
    public void discard(String restoreId) {
        String bucket = catalog.layout().bucket();
        String prefix = importPrefix(restoreId);
        for (var page : s3.listObjectsV2Paginator(b -> b.bucket(bucket).prefix(prefix))) {
            for (var object : page.contents()) {
                s3.deleteObject(b -> b.bucket(bucket).key(object.key()));
            }
        }
    }
}
