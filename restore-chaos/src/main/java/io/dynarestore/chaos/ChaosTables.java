package io.dynarestore.chaos;

import io.dynarestore.core.codec.SdkJson;
import io.dynarestore.core.vault.BackupWriter;
import io.dynarestore.core.vault.ExportLine;
import io.dynarestore.core.vault.IncrementalExportWriter;
import io.dynarestore.core.vault.VaultLayout;
import io.dynarestore.testkit.Dynalite;
import io.dynarestore.testkit.RandomHistory;
import io.dynarestore.testkit.RandomItems;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/** The tables and vault a chaos run restores from and into, built from its random history. */
final class ChaosTables {

    static final long SECOND = 1_000_000L;

    private ChaosTables() {}

    /** The existing destination of a run: provisioned, and limited in the proxy below its raise so writers meet throttling. */
    static void createExisting(ChaosStack stack, String table, RandomItems.Shape shape, long units) {
        DynamoDbClient dynamo = stack.dynamo();
        TableDescription d = description(table, shape, units);
        dynamo.createTable(b -> b.tableName(table)
                .attributeDefinitions(d.attributeDefinitions())
                .keySchema(d.keySchema())
                .provisionedThroughput(p -> p.readCapacityUnits(units).writeCapacityUnits(units)));
        Dynalite.awaitActive(dynamo, table);
        // the raise goes to 1000 WCU; the proxy lets 150 through, so writers meet throttling too
        stack.proxy().limit(table, 150);
    }

    /** The vault of a run's source table: a backup of the history's base and incremental exports of random lengths up to {@code end}. */
    static void writeVault(
            ChaosStack stack,
            Random r,
            String backupId,
            String table,
            TableDescription description,
            RandomHistory history,
            long t0,
            long end) {
        var layout = new VaultLayout(ChaosStack.BUCKET, "");
        var backup = new BackupWriter(
                stack.s3(), layout, ChaosStack.ACCOUNT, ChaosStack.REGION, table, backupId, 50 + r.nextInt(200));
        try (var part = backup.openPart()) {
            history.base().forEach(part::write);
        }
        backup.finish(description, List.of(), null, instant(t0), null);
        long cursor = t0;
        int n = 0;
        while (cursor < end) {
            long length = (5 + r.nextInt(15)) * SECOND;
            var writer = new IncrementalExportWriter(
                    stack.s3(),
                    layout,
                    ChaosStack.ACCOUNT,
                    ChaosStack.REGION,
                    table,
                    "x" + n++,
                    instant(cursor),
                    instant(cursor + length),
                    20 + r.nextInt(100));
            try (var part = writer.openPart()) {
                for (RandomHistory.Write w : history.writesIn(cursor, cursor + length, false)) {
                    part.write(ExportLine.change(w.keys(), w.oldImage(), w.newImage(), w.micros()));
                }
            }
            writer.finish();
            cursor += length;
        }
    }

    /** A provisioned table of this shape, as DescribeTable gives it. */
    static TableDescription description(String table, RandomItems.Shape shape, long units) {
        var defs = new StringBuilder("{\"AttributeName\":\"id\",\"AttributeType\":\"" + shape.partitionType() + "\"}");
        var schema = new StringBuilder("{\"AttributeName\":\"id\",\"KeyType\":\"HASH\"}");
        if (shape.sortKey() != null) {
            defs.append(",{\"AttributeName\":\"at\",\"AttributeType\":\"")
                    .append(shape.sortType())
                    .append("\"}");
            schema.append(",{\"AttributeName\":\"at\",\"KeyType\":\"RANGE\"}");
        }
        return SdkJson.fromJson(
                "{\"TableName\":\"" + table + "\",\"AttributeDefinitions\":[" + defs
                        + "],\"KeySchema\":[" + schema + "],\"TableStatus\":\"ACTIVE\","
                        + "\"TableArn\":\"arn:aws:dynamodb:us-east-1:000000000000:table/" + table + "\","
                        + "\"ProvisionedThroughput\":{\"ReadCapacityUnits\":" + units + ",\"WriteCapacityUnits\":"
                        + units
                        + "}}",
                TableDescription.builder());
    }

    static Instant instant(long micros) {
        return Instant.ofEpochSecond(Math.floorDiv(micros, SECOND), Math.floorMod(micros, SECOND) * 1_000);
    }

    static long micros(Instant t) {
        return t.getEpochSecond() * SECOND + t.getNano() / 1_000;
    }
}
