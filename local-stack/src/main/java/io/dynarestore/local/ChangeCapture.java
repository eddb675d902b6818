package io.dynarestore.local;

import io.dynarestore.core.pitr.KeyRange;
import io.dynarestore.core.vault.ExportLine;
import io.dynarestore.core.vault.ExportMetadata;
import io.dynarestore.core.vault.IncrementalExportWriter;
import io.dynarestore.core.vault.VaultLayout;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Writes to a live table and records each write, with its old and new image, as the vault's
 * incremental exports do (every write, not compacted). For tests and the demo: a stand-in for
 * DynamoDB's own change capture. Writes are stamped with the time the caller gives, so that a
 * history can be laid out over hours in a moment.
 */
public final class ChangeCapture {

    private final DynamoDbClient dynamo;
    private final String table;
    private final List<String> keyAttributes;
    private final List<ExportLine> pending = new ArrayList<>();

    public ChangeCapture(DynamoDbClient dynamo, String table, List<String> keyAttributes) {
        this.dynamo = dynamo;
        this.table = table;
        this.keyAttributes = keyAttributes;
    }

    public void put(Map<String, AttributeValue> item, Instant at) {
        var old = dynamo.putItem(b -> b.tableName(table).item(item).returnValues(ReturnValue.ALL_OLD))
                .attributes();
        pending.add(ExportLine.change(keys(item), old == null || old.isEmpty() ? null : old, item, micros(at)));
    }

    public void delete(Map<String, AttributeValue> key, Instant at) {
        var old = dynamo.deleteItem(b -> b.tableName(table).key(keys(key)).returnValues(ReturnValue.ALL_OLD))
                .attributes();
        pending.add(ExportLine.change(keys(key), old == null || old.isEmpty() ? null : old, null, micros(at)));
    }

    /** Writes the recorded writes made in [from, to) as an incremental export, and forgets them. */
    public ExportMetadata export(
            S3Client s3, VaultLayout layout, String account, String region, String exportId, Instant from, Instant to) {
        var writer = new IncrementalExportWriter(s3, layout, account, region, table, exportId, from, to, 10_000)
                .keySlices(KeyRange.slicer(keyAttributes, IncrementalExportWriter.KEY_SLICES));
        long fromMicros = micros(from);
        long toMicros = micros(to);
        try (var part = writer.openPart()) {
            pending.removeIf(change -> {
                if (change.writeTimestampMicros() >= fromMicros && change.writeTimestampMicros() < toMicros) {
                    part.write(change);
                    return true;
                }
                return false;
            });
        }
        return writer.finish();
    }

    /** Forgets the recorded writes (writes the vault never saw: a gap in its coverage). */
    public void discard() {
        pending.clear();
    }

    private Map<String, AttributeValue> keys(Map<String, AttributeValue> item) {
        var key = new LinkedHashMap<String, AttributeValue>();
        keyAttributes.forEach(k -> key.put(k, item.get(k)));
        return key;
    }

    private static long micros(Instant t) {
        return t.getEpochSecond() * 1_000_000L + t.getNano() / 1_000;
    }
}
