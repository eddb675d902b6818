package io.dynarestore.e2e;

import io.dynarestore.contracts.request.Scope;
import io.dynarestore.core.codec.SdkJson;
import io.dynarestore.core.vault.BackupWriter;
import io.dynarestore.core.vault.ExportLine;
import io.dynarestore.core.vault.IncrementalExportWriter;
import io.dynarestore.core.vault.VaultLayout;
import io.dynarestore.testkit.Dynalite;
import io.dynarestore.testkit.ItemDigests;
import io.dynarestore.testkit.RandomHistory;
import io.dynarestore.testkit.RandomItems;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/** Tables with a random history in the vault: a base backup and incremental exports over it. */
final class HistoryFixtures {

    static final long SECOND = 1_000_000L;
    private static final String[] KEY_TYPES = {"S", "N", "B"};

    private HistoryFixtures() {}

    /** A random key shape: partition key of any key type, a sort key or none. */
    static RandomItems.Shape shape(Random r) {
        String pkType = KEY_TYPES[r.nextInt(3)];
        boolean sorted = r.nextInt(4) > 0;
        return new RandomItems.Shape("id", pkType, sorted ? "at" : null, KEY_TYPES[r.nextInt(3)], java.util.Map.of());
    }

    /** The description of a provisioned table with this shape, as DescribeTable would give it. */
    static TableDescription description(String table, RandomItems.Shape shape) {
        var defs = new StringBuilder("{\"AttributeName\":\"" + shape.partitionKey() + "\",\"AttributeType\":\""
                + shape.partitionType() + "\"}");
        var keys = new StringBuilder("{\"AttributeName\":\"" + shape.partitionKey() + "\",\"KeyType\":\"HASH\"}");
        if (shape.sortKey() != null) {
            defs.append(",{\"AttributeName\":\"")
                    .append(shape.sortKey())
                    .append("\",\"AttributeType\":\"")
                    .append(shape.sortType())
                    .append("\"}");
            keys.append(",{\"AttributeName\":\"").append(shape.sortKey()).append("\",\"KeyType\":\"RANGE\"}");
        }
        return SdkJson.fromJson(
                "{\"TableName\":\"" + table + "\",\"AttributeDefinitions\":[" + defs
                        + "],\"KeySchema\":[" + keys + "],\"TableStatus\":\"ACTIVE\","
                        + "\"TableArn\":\"arn:aws:dynamodb:us-east-1:000000000000:table/" + table + "\","
                        + "\"ProvisionedThroughput\":{\"ReadCapacityUnits\":5,\"WriteCapacityUnits\":5}}",
                TableDescription.builder());
    }

    /** Writes the base backup at {@code t0} and exports over the history; returns the export ranges. */
    static List<long[]> writeToVault(
            RestoreStack stack,
            String table,
            RandomItems.Shape shape,
            RandomHistory history,
            long t0,
            long end,
            Random r) {
        var layout = new VaultLayout(RestoreStack.BUCKET, "");
        var backup = new BackupWriter(
                stack.s3.client(), layout, RestoreStack.ACCOUNT, RestoreStack.REGION, table, "base", 1 + r.nextInt(25));
        try (var part = backup.openPart()) {
            history.base().forEach(part::write);
        }
        backup.finish(description(table, shape), List.of(), null, instant(t0), null);
        var ranges = new ArrayList<long[]>();
        long cursor = t0 - r.nextInt(2) * SECOND;
        int n = 0;
        while (cursor < end) {
            long length = (2 + r.nextInt(25)) * SECOND + r.nextInt(1000) * 1000L;
            boolean gap = n > 0 && r.nextInt(8) == 0;
            if (!gap) {
                writeExport(stack, layout, table, "x" + n, history, cursor, cursor + length, r.nextInt(4) == 0);
                ranges.add(new long[] {cursor, cursor + length});
            }
            n++;
            cursor += length;
        }
        return ranges;
    }

    static void writeExport(
            RestoreStack stack,
            VaultLayout layout,
            String table,
            String id,
            RandomHistory history,
            long from,
            long to,
            boolean compacted) {
        var writer = new IncrementalExportWriter(
                stack.s3.client(),
                layout,
                RestoreStack.ACCOUNT,
                RestoreStack.REGION,
                table,
                id,
                instant(from),
                instant(to),
                1 + new Random(from).nextInt(30),
                compacted);
        var lines = history.writesIn(from, to, compacted);
        try (var part = writer.openPart()) {
            for (RandomHistory.Write w : lines) {
                part.write(ExportLine.change(w.keys(), w.oldImage(), w.newImage(), w.micros()));
            }
        }
        writer.finish();
    }

    static Instant instant(long micros) {
        return Instant.ofEpochSecond(Math.floorDiv(micros, SECOND), Math.floorMod(micros, SECOND) * 1_000);
    }

    /**
     * A table with a history in the vault (a base backup at {@code t0} in files of {@code linesPerFile},
     * three exports of 31 s over it) and, created in dynalite, its live state at the end of the history.
     */
    static void liveTable(
            RestoreStack stack,
            String name,
            RandomHistory history,
            RandomItems.Shape shape,
            long t0,
            int linesPerFile) {
        var layout = new VaultLayout(RestoreStack.BUCKET, "");
        var backup = new BackupWriter(
                stack.s3.client(), layout, RestoreStack.ACCOUNT, RestoreStack.REGION, name, "base", linesPerFile);
        try (var part = backup.openPart()) {
            history.base().forEach(part::write);
        }
        backup.finish(description(name, shape), List.of(), null, instant(t0), null);
        for (int e = 0; e < 3; e++) {
            writeExport(stack, layout, name, "x" + e, history, t0 + e * 31 * SECOND, t0 + (e + 1) * 31 * SECOND, false);
        }
        createTable(stack, name);
        put(stack, name, history.imageBefore(Long.MAX_VALUE).values());
    }

    /**
     * After {@link #liveTable}'s history (its exports end 93 s after {@code t0}): a mass delete of 60%
     * of the table's items within one second from {@code t0 + 95 s}, in one more export of the change
     * log and in the live table. Returns the deletes, in time order.
     */
    static List<RandomHistory.Write> massDelete(RestoreStack stack, String name, RandomHistory history, long t0) {
        var live = new ArrayList<>(history.imageBefore(Long.MAX_VALUE).values());
        var deletes = new ArrayList<RandomHistory.Write>();
        long start = t0 + 95 * SECOND;
        for (int i = 0; i < live.size() * 6 / 10; i++) {
            var item = live.get(i);
            var key = Map.of("pk", item.get("pk"), "sk", item.get("sk"));
            deletes.add(new RandomHistory.Write(key, item, null, start + i * (SECOND / 2) / live.size()));
        }
        var writer = new IncrementalExportWriter(
                stack.s3.client(),
                new VaultLayout(RestoreStack.BUCKET, ""),
                RestoreStack.ACCOUNT,
                RestoreStack.REGION,
                name,
                "x3",
                instant(t0 + 93 * SECOND),
                instant(t0 + 100 * SECOND),
                7,
                false);
        try (var part = writer.openPart()) {
            for (var w : deletes) {
                part.write(ExportLine.change(w.keys(), w.oldImage(), null, w.micros()));
            }
        }
        writer.finish();
        deletes.forEach(
                w -> stack.dynalite.client().deleteItem(b -> b.tableName(name).key(w.keys())));
        return deletes;
    }

    static void createTable(RestoreStack stack, String name) {
        Dynalite.createTable(
                stack.dynalite.client(),
                name,
                RandomItems.Shape.simple(),
                b -> b.provisionedThroughput(p -> p.readCapacityUnits(5L).writeCapacityUnits(5L)));
    }

    static void put(RestoreStack stack, String table, Iterable<Map<String, AttributeValue>> items) {
        var batch = new ArrayList<WriteRequest>();
        for (var item : items) {
            batch.add(WriteRequest.builder()
                    .putRequest(PutRequest.builder().item(item).build())
                    .build());
            if (batch.size() == 25) {
                var copy = List.copyOf(batch);
                stack.dynalite.client().batchWriteItem(b -> b.requestItems(Map.of(table, copy)));
                batch.clear();
            }
        }
        if (!batch.isEmpty()) {
            stack.dynalite.client().batchWriteItem(b -> b.requestItems(Map.of(table, batch)));
        }
    }

    /** A random filter: one to three key filters, sometimes with a sort-key condition, and an attribute filter. */
    static Scope.Records randomFilter(Random r) {
        var keyFilters = new ArrayList<Scope.KeyFilter>();
        for (int i = 0; i < 1 + r.nextInt(3); i++) {
            Scope.Condition pk = switch (r.nextInt(3)) {
                case 0 -> new Scope.Condition("EqualTo", List.of("p" + r.nextInt(8)));
                case 1 -> new Scope.Condition("BeginsWith", List.of("p" + (1 + r.nextInt(3))));
                default -> new Scope.Condition("Between", List.of("p2", "p6"));
            };
            Scope.Condition sk =
                    r.nextBoolean() ? new Scope.Condition("LessThan", List.of(String.valueOf(2 + r.nextInt(5)))) : null;
            keyFilters.add(new Scope.KeyFilter(pk, sk));
        }
        var attributeFilters = r.nextInt(3) == 0
                ? List.of(new Scope.AttributeFilter(
                        "a" + r.nextInt(30), "S", r.nextBoolean() ? "Exists" : "NotExists", List.of()))
                : List.<Scope.AttributeFilter>of();
        return new Scope.Records(keyFilters, attributeFilters);
    }

    static TreeMap<String, String> digests(Map<String, Map<String, AttributeValue>> image) {
        var d = new TreeMap<String, String>();
        image.forEach((k, v) -> d.put(k, ItemDigests.digest(v)));
        return d;
    }
}
