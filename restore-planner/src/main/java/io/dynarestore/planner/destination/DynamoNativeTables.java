package io.dynarestore.planner.destination;

import io.dynarestore.contracts.status.TableRef;
import io.dynarestore.core.aws.AwsClients;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ImportConflictException;
import software.amazon.awssdk.services.dynamodb.model.ImportTableDescription;
import software.amazon.awssdk.services.dynamodb.model.ImportTableRequest;
import software.amazon.awssdk.services.dynamodb.model.IndexStatus;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.RestoreTableFromBackupRequest;
import software.amazon.awssdk.services.dynamodb.model.TableAlreadyExistsException;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

/** {@link NativeTables} on DynamoDB, in the destination's account and region. */
public final class DynamoNativeTables implements NativeTables {

    private final AwsClients aws;

    public DynamoNativeTables(AwsClients aws) {
        this.aws = aws;
    }

    private DynamoDbClient dynamo(TableRef table) {
        return aws.dynamo(table.account(), table.region());
    }

    @Override
    public String startImport(TableRef table, ImportTableRequest request) {
        DynamoDbClient dynamo = dynamo(table);
        try {
            return dynamo.importTable(request).importTableDescription().importArn();
        } catch (ResourceInUseException | ImportConflictException e) {
            // the table exists: ours if an import from this restore's staging prefix made it
            String tableArn = dynamo.describeTable(b -> b.tableName(table.tableName()))
                    .table()
                    .tableArn();
            String prefix = request.s3BucketSource().s3KeyPrefix();
            for (var page : dynamo.listImportsPaginator(b -> b.tableArn(tableArn))) {
                for (var summary : page.importSummaryList()) {
                    if (summary.s3BucketSource() != null
                            && Objects.equals(summary.s3BucketSource().s3KeyPrefix(), prefix)) {
                        return summary.importArn();
                    }
                }
            }
            throw new TableCreator.DestinationException(
                    "Table " + table.tableName() + " exists in account "
                            + table.account() + " region " + table.region() + " and was not created by this restore's "
                            + "import; nothing was written to it. Submit the restore again with another table name.",
                    e);
        }
    }

    @Override
    public ImportProgress importProgress(TableRef table, String importArn) {
        ImportTableDescription d =
                dynamo(table).describeImport(b -> b.importArn(importArn)).importTableDescription();
        String failure = d.failureCode() == null && d.failureMessage() == null
                ? null
                : d.failureCode() + ": " + d.failureMessage();
        return new ImportProgress(
                d.importStatusAsString(),
                nz(d.importedItemCount()),
                nz(d.processedSizeBytes()),
                nz(d.errorCount()),
                failure);
    }

    private static long nz(Long value) {
        return value == null ? 0 : value;
    }

    @Override
    public void restoreSnap(TableRef table, RestoreTableFromBackupRequest request) {
        DynamoDbClient dynamo = dynamo(table);
        try {
            dynamo.restoreTableFromBackup(request);
        } catch (TableAlreadyExistsException e) {
            TableDescription existing =
                    dynamo.describeTable(b -> b.tableName(table.tableName())).table();
            var summary = existing.restoreSummary();
            if (summary == null || !request.backupArn().equals(summary.sourceBackupArn())) {
                throw new TableCreator.DestinationException(
                        "Table " + table.tableName() + " exists in account "
                                + table.account() + " region " + table.region() + " and was not restored from "
                                + request.backupArn() + "; it was left alone. Submit the restore again with another "
                                + "table name.",
                        e);
            }
        }
    }

    @Override
    public Optional<TableDescription> restoredTable(TableRef table) {
        TableDescription d;
        try {
            d = dynamo(table).describeTable(b -> b.tableName(table.tableName())).table();
        } catch (ResourceNotFoundException e) {
            return Optional.empty();
        }
        boolean restoring = d.restoreSummary() != null
                && Boolean.TRUE.equals(d.restoreSummary().restoreInProgress());
        boolean indexesActive = !d.hasGlobalSecondaryIndexes()
                || d.globalSecondaryIndexes().stream().allMatch(g -> g.indexStatus() == IndexStatus.ACTIVE);
        return !restoring && indexesActive && d.tableStatus() == TableStatus.ACTIVE ? Optional.of(d) : Optional.empty();
    }
}
