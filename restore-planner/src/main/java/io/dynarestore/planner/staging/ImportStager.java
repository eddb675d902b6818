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
 * a record restore keeps only the images its filter matches. One pass, streaming: memory holds
 * the delta's key set (16 bytes per key) and one line. Staging again first removes what an
 * earlier attempt left, so an import never sees an item twice.
 */
public final class ImportStager {

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
        var out = new DataFiles(s3, bucket, importPrefix(restoreId), linesPerFile);
        long items = 0;
        long bytes = 0;
        try (DataFiles.Part part = out.openPart()) {
            for (ManifestFile f : base.files()) {
                try (var reader = new DataFileReader(
                        f.dataFileS3Key(),
                        s3.getObject(b -> b.bucket(base.dataBucket()).key(f.dataFileS3Key())),
                        f.md5Checksum())) {
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
                try (var reader = new DataFileReader(
                        f.dataFileS3Key(),
                        s3.getObject(b -> b.bucket(delta.bucket()).key(f.dataFileS3Key())),
                        f.md5Checksum())) {
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
