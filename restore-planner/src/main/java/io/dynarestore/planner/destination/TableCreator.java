package io.dynarestore.planner.destination;

import io.dynarestore.contracts.request.Destination;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.restore.RestoreValidator;
import io.dynarestore.core.table.TableSpecs;
import io.dynarestore.core.table.TableWaiter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.Tag;

/**
 * Creates the new table of a restore from the backup's table description and waits until it is
 * ACTIVE. Idempotent across planner crashes: a table that exists and carries this restore's tag
 * is taken as the one this restore created; any other existing table is never touched.
 */
public final class TableCreator {

    private final AwsClients aws;
    private final Duration activeTimeout;

    public TableCreator(AwsClients aws, Duration activeTimeout) {
        this.aws = aws;
        this.activeTimeout = activeTimeout;
    }

    /** Creates (or finds) the table; throws {@link DestinationException} with a reason otherwise. */
    public TableDescription ensure(String restoreId, Destination.NewTable destination, TableDescription backupTable,
                                   List<Tag> backupTags) {
        DynamoDbClient dynamo = aws.dynamo(destination.account(), destination.region());
        String name = destination.tableName();
        var options = destination.options();
        boolean hasLsis = backupTable.hasLocalSecondaryIndexes() && !backupTable.localSecondaryIndexes().isEmpty();
        boolean includeGsis = options == null || options.includeGlobalSecondaryIndexes() == null
                || options.includeGlobalSecondaryIndexes();
        boolean includeLsis = hasLsis && (options == null || options.includeLocalSecondaryIndexes() == null
                || options.includeLocalSecondaryIndexes());
        List<Tag> tags = tags(restoreId, backupTags, options == null ? null : options.tags());

        boolean createdNow = false;
        if (!exists(dynamo, name)) {
            try {
                dynamo.createTable(TableSpecs.createRequest(backupTable, name, includeGsis, includeLsis, tags));
                createdNow = true;
            } catch (ResourceInUseException e) {
                // created in the meantime: by an earlier attempt of this restore, or by someone else
            } catch (software.amazon.awssdk.services.dynamodb.model.DynamoDbException e) {
                throw new DestinationException("DynamoDB refused to create table " + name + " in account "
                        + destination.account() + " region " + destination.region() + ": "
                        + e.awsErrorDetails().errorMessage() + ". Fix the cause (limits, permissions, name) and "
                        + "submit the restore again with a new restoreId.", e);
            }
        }
        TableDescription table = TableWaiter.untilActive(dynamo, name, activeTimeout);
        boolean ours = RestoreValidator.createdBy(dynamo, table, restoreId);
        if (!ours && !createdNow) {
            throw new DestinationException("Table " + name + " exists but was not created by restore " + restoreId
                    + " (it lacks the tag " + RestoreValidator.RESTORE_TAG + "); nothing was written to it. "
                    + "Submit the restore again with another table name.", null);
        }
        if (!ours) {
            // DynamoDB applies tags at creation; servers that ignore them there (dynalite) get them now
            dynamo.tagResource(b -> b.resourceArn(table.tableArn()).tags(tags));
        }
        return table;
    }

    private static boolean exists(DynamoDbClient dynamo, String table) {
        try {
            dynamo.describeTable(b -> b.tableName(table));
            return true;
        } catch (ResourceNotFoundException e) {
            return false;
        }
    }

    /** The backup's tags, then the request's, then this restore's own tag. */
    static List<Tag> tags(String restoreId, List<Tag> backupTags, Map<String, String> requested) {
        var merged = new java.util.LinkedHashMap<String, String>();
        if (backupTags != null) {
            backupTags.forEach(t -> merged.put(t.key(), t.value()));
        }
        if (requested != null) {
            merged.putAll(requested);
        }
        merged.put(RestoreValidator.RESTORE_TAG, restoreId);
        var tags = new ArrayList<Tag>();
        merged.forEach((k, v) -> tags.add(Tag.builder().key(k).value(v).build()));
        return tags;
    }

    /** The destination could not be prepared; the message says why and what to do. */
    public static final class DestinationException extends RuntimeException {
        public DestinationException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
