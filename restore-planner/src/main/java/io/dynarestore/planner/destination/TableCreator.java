package io.dynarestore.planner.destination;

import io.dynarestore.contracts.request.Destination;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.table.RestoreTags;
import java.time.Duration;
import java.util.List;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * Creates the new table of a restore by item writes, with its settings (the backup's unless the
 * request overrides them), waits until it is ACTIVE and sets what CreateTable cannot (TTL, PITR;
 * tags again for servers that ignore them at creation). Idempotent across planner crashes: a
 * table that exists and carries this restore's tag is taken as the one this restore created; any
 * other existing table is never touched.
 */
public final class TableCreator {

    private final AwsClients aws;
    private final Duration activeTimeout;

    public TableCreator(AwsClients aws, Duration activeTimeout) {
        this.aws = aws;
        this.activeTimeout = activeTimeout;
    }

    /** The table, ready, and the warnings of settings the endpoint could not apply. */
    public record Ready(TableDescription table, List<String> warnings) {}

    /**
     * Creates (or finds) the table, on demand warmed to {@code warmWrites} writes a second where not
     * {@code null}; throws {@link DestinationException} with a reason otherwise.
     */
    public Ready ensure(
            String restoreId,
            Destination.NewTable destination,
            TableDescription backupTable,
            TableSettings settings,
            Long warmWrites) {
        DynamoDbClient dynamo = aws.dynamo(destination.account(), destination.region());
        String name = destination.tableName();
        boolean createdNow = false;
        if (!exists(dynamo, name)) {
            try {
                dynamo.createTable(TableSpecs.createRequest(backupTable, name, settings, warmWrites));
                createdNow = true;
            } catch (ResourceInUseException e) {
                // created in the meantime: by an earlier attempt of this restore, or by someone else
            } catch (DynamoDbException e) {
                throw new DestinationException(
                        "DynamoDB refused to create table " + name + " in account "
                                + destination.account() + " region " + destination.region() + ": "
                                + e.awsErrorDetails().errorMessage()
                                + ". Fix the cause (limits, permissions, name, KMS key) "
                                + "and submit the restore again with a new restoreId.",
                        e);
            }
        }
        TableDescription table = TableWaiter.untilActive(dynamo, name, activeTimeout);
        if (!createdNow && !RestoreTags.createdBy(dynamo, table, restoreId)) {
            throw new DestinationException(
                    "Table " + name + " exists but was not created by restore " + restoreId
                            + " (it lacks the tag " + RestoreTags.RESTORE_TAG + "); nothing was written to it. "
                            + "Submit the restore again with another table name.",
                    null);
        }
        try {
            var warnings =
                    TableFinisher.finish(dynamo, table, settings, TableFinisher.CreatedBy.CREATE_TABLE, activeTimeout);
            return new Ready(table, warnings);
        } catch (DynamoDbException e) {
            throw new DestinationException(
                    "Table " + name + " was created but DynamoDB refused one of its "
                            + "settings: " + e.awsErrorDetails().errorMessage()
                            + ". Nothing was written to it; fix the "
                            + "cause and submit the restore again with a new restoreId.",
                    e);
        }
    }

    private static boolean exists(DynamoDbClient dynamo, String table) {
        try {
            dynamo.describeTable(b -> b.tableName(table));
            return true;
        } catch (ResourceNotFoundException e) {
            return false;
        }
    }

    /** The destination could not be prepared; the message says why and what to do. */
    public static final class DestinationException extends RuntimeException {
        public DestinationException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
