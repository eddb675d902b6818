package io.dynarestore.planner.restore;

import io.dynarestore.contracts.status.TableRef;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.vault.DataFileReader;
import io.dynarestore.core.vault.ExportLine;
import io.dynarestore.planner.destination.NativeTables;
import io.dynarestore.planner.destination.TableCreator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.ImportTableRequest;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.RestoreTableFromBackupRequest;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * What DynamoDB does for ImportTable and RestoreTableFromBackup, done against dynalite (which
 * implements neither): the import creates the table from the request's creation parameters and
 * loads every staged line, reading the staged files exactly as ImportTable would; a Snap restore
 * copies a stand-in table that holds the Snap's items. Every request is kept, so that tests can
 * check it against the API's shape. Test-only: production uses {@code DynamoNativeTables}.
 */
final class SimulatedNativeTables implements NativeTables {

    private final AwsClients aws;
    /** Snap backup ARN to the dynalite table that holds what the Snap holds. */
    private final Map<String, String> snapContents = new ConcurrentHashMap<>();

    private final Map<String, Progress> imports = new ConcurrentHashMap<>();
    final List<ImportTableRequest> importRequests = new CopyOnWriteArrayList<>();
    final List<RestoreTableFromBackupRequest> snapRequests = new CopyOnWriteArrayList<>();
    /** Items the next import reports as failed to import, as DynamoDB does for malformed lines. */
    volatile long nextImportErrors;

    private record Progress(long items, long bytes, long errors) {}

    SimulatedNativeTables(AwsClients aws) {
        this.aws = aws;
    }

    SimulatedNativeTables snap(String backupArn, String contentsTable) {
        snapContents.put(backupArn, contentsTable);
        return this;
    }

    @Override
    public String startImport(TableRef table, ImportTableRequest request) {
        importRequests.add(request);
        String arn = "arn:aws:dynamodb:" + table.region() + ":" + table.account() + ":table/" + table.tableName()
                + "/import/" + request.clientToken();
        if (imports.containsKey(arn)) {
            return arn; // the same client token: DynamoDB answers with the import already started
        }
        DynamoDbClient dynamo = aws.dynamo(table.account(), table.region());
        var p = request.tableCreationParameters();
        var create = CreateTableRequest.builder()
                .tableName(p.tableName())
                .attributeDefinitions(p.attributeDefinitions())
                .keySchema(p.keySchema())
                .billingMode(p.billingMode());
        if (p.billingMode() != BillingMode.PAY_PER_REQUEST) {
            create.provisionedThroughput(p.provisionedThroughput());
        }
        if (p.hasGlobalSecondaryIndexes() && !p.globalSecondaryIndexes().isEmpty()) {
            var gsis = new ArrayList<GlobalSecondaryIndex>();
            for (var g : p.globalSecondaryIndexes()) {
                gsis.add(
                        p.billingMode() == BillingMode.PAY_PER_REQUEST
                                ? g.toBuilder()
                                        .provisionedThroughput(
                                                (software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughput)
                                                        null)
                                        .build()
                                : g);
            }
            create.globalSecondaryIndexes(gsis);
        }
        dynamo.createTable(create.build());
        io.dynarestore.testkit.Dynalite.awaitActive(dynamo, p.tableName());
        var source = request.s3BucketSource();
        long items = 0;
        long bytes = 0;
        var batch = new ArrayList<WriteRequest>();
        var s3 = aws.s3();
        for (var object : s3.listObjectsV2Paginator(
                        b -> b.bucket(source.s3Bucket()).prefix(source.s3KeyPrefix()))
                .contents()) {
            bytes += object.size();
            try (var reader = new DataFileReader(
                    object.key(), s3.getObject(b -> b.bucket(source.s3Bucket()).key(object.key())), null)) {
                for (ExportLine line; (line = reader.next()) != null; ) {
                    batch.add(WriteRequest.builder()
                            .putRequest(PutRequest.builder().item(line.item()).build())
                            .build());
                    items++;
                    if (batch.size() == 25) {
                        write(dynamo, p.tableName(), batch);
                    }
                }
            }
        }
        write(dynamo, p.tableName(), batch);
        long errors = nextImportErrors;
        nextImportErrors = 0;
        imports.put(arn, new Progress(items - errors, bytes, errors));
        return arn;
    }

    private static void write(DynamoDbClient dynamo, String table, List<WriteRequest> batch) {
        if (batch.isEmpty()) {
            return;
        }
        Map<String, List<WriteRequest>> pending = Map.of(table, new ArrayList<>(batch));
        while (!pending.isEmpty()) {
            var request = pending;
            var unprocessed =
                    dynamo.batchWriteItem(b -> b.requestItems(request)).unprocessedItems();
            pending = unprocessed == null || unprocessed.isEmpty() ? Map.of() : unprocessed;
        }
        batch.clear();
    }

    @Override
    public ImportProgress importProgress(TableRef table, String importArn) {
        Progress p = imports.get(importArn);
        if (p == null) {
            throw new TableCreator.DestinationException("no import " + importArn, null);
        }
        return new ImportProgress("COMPLETED", p.items(), p.bytes(), p.errors(), null);
    }

    @Override
    public void restoreSnap(TableRef table, RestoreTableFromBackupRequest request) {
        snapRequests.add(request);
        DynamoDbClient dynamo = aws.dynamo(table.account(), table.region());
        if (restoredTable(table).isPresent()) {
            return;
        }
        String contents = snapContents.get(request.backupArn());
        if (contents == null) {
            throw new TableCreator.DestinationException("Backup " + request.backupArn() + " not found", null);
        }
        TableDescription source =
                dynamo.describeTable(b -> b.tableName(contents)).table();
        var keys = source.keySchema().stream().map(k -> k.attributeName()).toList();
        dynamo.createTable(b -> b.tableName(request.targetTableName())
                .attributeDefinitions(source.attributeDefinitions().stream()
                        .filter(a -> keys.contains(a.attributeName()))
                        .toList())
                .keySchema(source.keySchema())
                .provisionedThroughput(t -> t.readCapacityUnits(
                                source.provisionedThroughput().readCapacityUnits())
                        .writeCapacityUnits(source.provisionedThroughput().writeCapacityUnits())));
        io.dynarestore.testkit.Dynalite.awaitActive(dynamo, request.targetTableName());
        var batch = new ArrayList<WriteRequest>();
        for (Map<String, AttributeValue> item :
                dynamo.scanPaginator(b -> b.tableName(contents)).items()) {
            batch.add(WriteRequest.builder()
                    .putRequest(PutRequest.builder().item(item).build())
                    .build());
            if (batch.size() == 25) {
                write(dynamo, request.targetTableName(), batch);
            }
        }
        write(dynamo, request.targetTableName(), batch);
    }

    @Override
    public Optional<TableDescription> restoredTable(TableRef table) {
        try {
            var d = aws.dynamo(table.account(), table.region())
                    .describeTable(b -> b.tableName(table.tableName()))
                    .table();
            return d.tableStatus() == TableStatus.ACTIVE ? Optional.of(d) : Optional.empty();
        } catch (ResourceNotFoundException e) {
            return Optional.empty();
        }
    }
}
