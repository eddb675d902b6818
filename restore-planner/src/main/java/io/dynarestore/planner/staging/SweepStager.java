package io.dynarestore.planner.staging;

import io.dynarestore.contracts.Json;
import io.dynarestore.core.pitr.DeltaBuilder;
import io.dynarestore.core.pitr.KeyHash;
import io.dynarestore.core.vault.DataFileReader;
import io.dynarestore.core.vault.DataFiles;
import io.dynarestore.core.vault.ExportLine;
import io.dynarestore.core.vault.KeyPrefilter;
import io.dynarestore.core.vault.ManifestFile;
import io.dynarestore.core.vault.VaultCatalog;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Stages the deletes of a full in-place restore under {@code _staging/<restoreId>/sweep/}: every
 * key the table holds now that the image at T lacks. Costs a key-only Scan of the table and a read
 * of the image's keys, found in the base backup's lines without parsing them (ADR 0007).
 *
 * <p>Rule: the table is scanned first, so that only the image keys the table may hold (a Bloom
 * filter of the scanned keys) are kept for the comparison; a sweep shared over the fleet scans one
 * parallel Scan segment per part, and each part keeps about its share of the keys (ADR 0040).
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

    /** Stages the whole sweep of {@code input} here, reading the table through {@code dynamo}. */
    public StagedSweep stage(String restoreId, SweepInput input, DynamoDbClient dynamo) {
        String prefix = catalog.layout().stagingPrefix(restoreId);
        var staged = build(prefix + "sweep/", input, dynamo, 0, 1);
        writeSummary(prefix, staged);
        return staged;
    }

    /**
     * Builds part {@code part} of {@code parts} of a sweep under {@code prefix} (its deletes and their
     * manifest, no summary): the table's keys in parallel Scan segment {@code part} that the image lacks.
     */
    public StagedSweep stagePart(String prefix, SweepInput input, DynamoDbClient dynamo, int part, int parts) {
        return build(prefix, input, dynamo, part, parts);
    }

    /** Lays the parts' deletes end to end as the restore's sweep (segments hold disjoint keys), then the summary. */
    public StagedSweep merge(String restoreId, List<StagedSweep> parts) {
        String prefix = catalog.layout().stagingPrefix(restoreId);
        var out = new DataFiles(s3, catalog.layout().bucket(), prefix + "sweep/", linesPerFile);
        long deletes = 0;
        long tableKeys = 0;
        for (StagedSweep part : parts) {
            out.adopt(part.files());
            deletes += part.deletes();
            tableKeys += part.tableKeys();
        }
        out.writeManifest();
        var staged = new StagedSweep(catalog.layout().bucket(), deletes, tableKeys, out.files());
        writeSummary(prefix, staged);
        return staged;
    }

    private void writeSummary(String prefix, StagedSweep staged) {
        s3.putObject(
                b -> b.bucket(catalog.layout().bucket()).key(prefix + SUMMARY).contentType("application/json"),
                RequestBody.fromBytes(Json.toBytes(staged)));
    }

    private StagedSweep build(String prefix, SweepInput input, DynamoDbClient dynamo, int part, int parts) {
        var out = new DataFiles(s3, catalog.layout().bucket(), prefix, linesPerFile);
        long deletes;
        long tableKeys;
        // about 100 bytes per key in memory while a bucket is compared
        int bits = DeltaBuilder.bitsFor(input.imageKeys() / 20 / parts, memoryBudgetBytes);
        // sized for this segment's share of a table about the image's size; a larger table only
        // raises the share of image keys kept for nothing, never drops one that is needed
        var scanned = KeyHashFilter.sizedFor(input.imageKeys() / parts + 1, memoryBudgetBytes / 4);
        try (var builder = new SweepBuilder(input.keyAttributes(), bits)) {
            tableKeys = scan(dynamo, input, part, parts, key -> scanned.add(builder.currentKey(key)));
            if (tableKeys > 0) {
                readImage(input, builder, scanned);
            }
            deletes = builder.build(out);
        }
        out.writeManifest();
        return new StagedSweep(catalog.layout().bucket(), deletes, tableKeys, out.files());
    }

    /** A key-only, consistent Scan of the table (of one parallel segment when {@code parts > 1}); returns how many keys. */
    private static long scan(
            DynamoDbClient dynamo, SweepInput input, int part, int parts, Consumer<Map<String, AttributeValue>> each) {
        var names = new HashMap<String, String>();
        for (int i = 0; i < input.keyAttributes().size(); i++) {
            names.put("#k" + i, input.keyAttributes().get(i));
        }
        String projection = String.join(", ", names.keySet().stream().sorted().toList());
        long keys = 0;
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> from = start;
            ScanResponse page;
            try {
                page = dynamo.scan(b -> {
                    b.tableName(input.table())
                            .projectionExpression(projection)
                            .expressionAttributeNames(names)
                            .consistentRead(true)
                            .exclusiveStartKey(from);
                    if (parts > 1) {
                        b.segment(part).totalSegments(parts);
                    }
                });
            } catch (ResourceNotFoundException e) {
                throw new IllegalStateException("Table " + input.table() + " (account " + input.account() + ", "
                        + input.region() + ") is gone: its keys could not be read for the in-place sweep. It was "
                        + "deleted after the restore was accepted; restore into a new table instead.");
            }
            for (var item : page.items()) {
                each.accept(item);
                keys++;
            }
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        return keys;
    }

    /**
     * Hands {@code builder} the image's keys that the table may hold: the base's found in their lines
     * unparsed (a line whose key the scan cannot find is parsed), then the delta's puts and deletes.
     */
    private void readImage(SweepInput input, SweepBuilder builder, KeyHashFilter scanned) {
        var keyAttributes = input.keyAttributes();
        var baseKeys = KeyPrefilter.ofItems(keyAttributes, key -> {
            KeyHash hash = KeyHash.of(key, keyAttributes);
            if (scanned.mayContain(hash)) {
                builder.baseKey(hash);
            }
            return false; // the key is all a sweep needs: the line is never parsed
        });
        for (ManifestFile f : input.baseFiles()) {
            forEachLine(input.baseBucket(), f, baseKeys, line -> {
                KeyHash hash = KeyHash.of(line.item(), keyAttributes);
                if (scanned.mayContain(hash)) {
                    builder.baseKey(hash);
                }
            });
        }
        var deltaKeys =
                KeyPrefilter.ofChanges(keyAttributes, key -> scanned.mayContain(KeyHash.of(key, keyAttributes)));
        for (ManifestFile f : input.deltaFiles()) {
            forEachLine(input.deltaBucket(), f, deltaKeys, line -> {
                KeyHash hash = KeyHash.of(line.keys(), keyAttributes);
                if (scanned.mayContain(hash)) {
                    builder.deltaKey(hash, line.newImage() != null);
                }
            });
        }
    }

    public Optional<StagedSweep> find(String restoreId) {
        return catalog.read(
                catalog.layout().bucket(), catalog.layout().stagingPrefix(restoreId) + SUMMARY, StagedSweep.class);
    }

    private void forEachLine(String bucket, ManifestFile f, KeyPrefilter prefilter, Consumer<ExportLine> each) {
        try (var reader = DataFileReader.selective(
                f.dataFileS3Key(),
                s3.getObject(b -> b.bucket(bucket).key(f.dataFileS3Key())),
                f.md5Checksum(),
                prefilter)) {
            for (ExportLine line; (line = reader.next()) != null; ) {
                each.accept(line);
            }
        }
    }
}
