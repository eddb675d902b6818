package io.dynarestore.planner.staging;

import io.dynarestore.contracts.Json;
import io.dynarestore.core.pitr.DeltaBuilder;
import io.dynarestore.core.vault.Backup;
import io.dynarestore.core.vault.DataFileReader;
import io.dynarestore.core.vault.DataFiles;
import io.dynarestore.core.vault.ExportLine;
import io.dynarestore.core.vault.ManifestFile;
import io.dynarestore.core.vault.VaultCatalog;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Stages the deletes of a full in-place restore under {@code _staging/<restoreId>/sweep/}: every
 * key the table holds now that the image at T lacks. Costs one more read of the base backup's
 * keys and a key-only Scan of the table (ADR 0007).
 */
public final class SweepStager {

    public static final String SUMMARY = "sweep.json";

    private final S3Client s3;
    private final VaultCatalog catalog;
    private final long memoryBudgetBytes;
    private final int linesPerFile;

    public SweepStager(S3Client s3, VaultCatalog catalog, long memoryBudgetBytes, int linesPerFile) {
        this.s3 = s3;
        this.catalog = catalog;
        this.memoryBudgetBytes = memoryBudgetBytes;
        this.linesPerFile = linesPerFile;
    }

    /** The staged deletes of a restore. */
    public record StagedSweep(String bucket, long deletes, long tableKeys, List<ManifestFile> files) {}

    /**
     * @param delta the staged delta of a point-in-time restore, or {@code null} for a backup
     */
    public StagedSweep stage(
            String restoreId,
            Backup base,
            DeltaStager.StagedDelta delta,
            DynamoDbClient dynamo,
            String table,
            List<String> keyAttributes) {
        long keys = base.itemCount() + (delta == null ? 0 : delta.keys());
        String prefix = catalog.layout().stagingPrefix(restoreId);
        String bucket = catalog.layout().bucket();
        var out = new DataFiles(s3, bucket, prefix + "sweep/", linesPerFile);
        long deletes;
        long tableKeys = 0;
        // about 100 bytes per key in memory while a bucket is compared
        int bits = DeltaBuilder.bitsFor(keys / 20, memoryBudgetBytes);
        try (var builder = new SweepBuilder(keyAttributes, bits)) {
            for (ManifestFile f : base.files()) {
                forEachLine(base.dataBucket(), f, line -> builder.baseKey(line.item()));
            }
            if (delta != null) {
                for (ManifestFile f : delta.files()) {
                    forEachLine(delta.bucket(), f, line -> builder.deltaKey(line.keys(), line.newImage() != null));
                }
            }
            var names = new HashMap<String, String>();
            for (int i = 0; i < keyAttributes.size(); i++) {
                names.put("#k" + i, keyAttributes.get(i));
            }
            String projection =
                    String.join(", ", names.keySet().stream().sorted().toList());
            Map<String, AttributeValue> start = null;
            do {
                Map<String, AttributeValue> from = start;
                ScanResponse page = dynamo.scan(b -> b.tableName(table)
                        .projectionExpression(projection)
                        .expressionAttributeNames(names)
                        .consistentRead(true)
                        .exclusiveStartKey(from));
                for (var item : page.items()) {
                    builder.currentKey(item);
                    tableKeys++;
                }
                start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty()
                        ? page.lastEvaluatedKey()
                        : null;
            } while (start != null);
            deletes = builder.build(out);
        }
        out.writeManifest();
        var staged = new StagedSweep(bucket, deletes, tableKeys, out.files());
        out.put(prefix + SUMMARY, Json.toBytes(staged), "application/json");
        return staged;
    }

    public Optional<StagedSweep> find(String restoreId) {
        return catalog.read(
                catalog.layout().bucket(), catalog.layout().stagingPrefix(restoreId) + SUMMARY, StagedSweep.class);
    }

    private void forEachLine(String bucket, ManifestFile f, Consumer<ExportLine> each) {
        try (var reader = new DataFileReader(
                f.dataFileS3Key(), s3.getObject(b -> b.bucket(bucket).key(f.dataFileS3Key())), f.md5Checksum())) {
            for (ExportLine line; (line = reader.next()) != null; ) {
                each.accept(line);
            }
        }
    }
}
