package io.dynarestore.planner.destination;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.TableClass;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveStatus;
import software.amazon.awssdk.services.dynamodb.model.UpdateTableRequest;

/**
 * Gives a restored table the settings its creating call could not: tags, TTL and PITR always
 * (no create call takes the last two), and after ImportTable or RestoreTableFromBackup also the
 * stream, table class and deletion protection. Every call is idempotent, so finishing again after
 * a crash is safe. A setting the endpoint does not implement (dynalite lacks UpdateTimeToLive
 * and UpdateContinuousBackups) becomes a warning instead of a failure: the data is restored
 * either way, and real DynamoDB implements them all.
 */
public final class TableFinisher {

    /** How the table came to be, which decides what is left to set. */
    public enum CreatedBy {
        CREATE_TABLE,
        IMPORT_TABLE,
        RESTORE_FROM_BACKUP
    }

    private TableFinisher() {}

    /** Applies what is left of {@code settings}; returns the warnings of settings the endpoint lacks. */
    public static List<String> finish(
            DynamoDbClient dynamo,
            TableDescription table,
            TableSettings settings,
            CreatedBy createdBy,
            Duration timeout) {
        var warnings = new ArrayList<String>();
        String name = table.tableName();
        dynamo.tagResource(b -> b.resourceArn(table.tableArn()).tags(settings.tags()));

        if (createdBy != CreatedBy.CREATE_TABLE) {
            TableDescription current = table;
            var stream = settings.streamSpecification();
            boolean streamOn = current.streamSpecification() != null
                    && Boolean.TRUE.equals(current.streamSpecification().streamEnabled());
            if (stream != null && (!streamOn || current.streamSpecification().streamViewType() != settings.stream())) {
                current = update(dynamo, name, b -> b.streamSpecification(stream), timeout, "stream", warnings);
            }
            TableClass have = current.tableClassSummary() == null
                            || current.tableClassSummary().tableClass() == null
                    ? TableClass.STANDARD
                    : current.tableClassSummary().tableClass();
            if (settings.tableClass() != null && settings.tableClass() != have) {
                current = update(
                        dynamo, name, b -> b.tableClass(settings.tableClass()), timeout, "table class", warnings);
            }
            if (settings.deletionProtection() && !Boolean.TRUE.equals(current.deletionProtectionEnabled())) {
                update(dynamo, name, b -> b.deletionProtectionEnabled(true), timeout, "deletion protection", warnings);
            }
        }
        if (settings.ttlAttribute() != null) {
            unlessUnknown(warnings, "TTL on attribute " + settings.ttlAttribute(), "UpdateTimeToLive", () -> {
                var ttl = dynamo.describeTimeToLive(b -> b.tableName(name)).timeToLiveDescription();
                boolean on = ttl != null
                        && (ttl.timeToLiveStatus() == TimeToLiveStatus.ENABLED
                                || ttl.timeToLiveStatus() == TimeToLiveStatus.ENABLING)
                        && Objects.equals(ttl.attributeName(), settings.ttlAttribute());
                if (!on) {
                    dynamo.updateTimeToLive(b -> b.tableName(name)
                            .timeToLiveSpecification(t -> t.enabled(true).attributeName(settings.ttlAttribute())));
                }
            });
        }
        if (settings.pointInTimeRecovery()) {
            unlessUnknown(
                    warnings,
                    "point-in-time recovery",
                    "UpdateContinuousBackups",
                    () -> dynamo.updateContinuousBackups(b -> b.tableName(name)
                            .pointInTimeRecoverySpecification(p -> p.pointInTimeRecoveryEnabled(true))));
        }
        return warnings;
    }

    private static TableDescription update(
            DynamoDbClient dynamo,
            String table,
            Consumer<UpdateTableRequest.Builder> change,
            Duration timeout,
            String what,
            List<String> warnings) {
        boolean[] done = {false};
        unlessUnknown(warnings, what, "UpdateTable", () -> {
            dynamo.updateTable(b -> change.accept(b.tableName(table)));
            done[0] = true;
        });
        return done[0]
                ? TableWaiter.untilActive(dynamo, table, timeout)
                : dynamo.describeTable(b -> b.tableName(table)).table();
    }

    /** Runs {@code call}; a server that does not implement the operation leaves a warning instead. */
    private static void unlessUnknown(List<String> warnings, String setting, String operation, Runnable call) {
        try {
            call.run();
        } catch (DynamoDbException e) {
            if (!unknownOperation(e)) {
                throw e;
            }
            warnings.add("The table's " + setting + " was not set: the DynamoDB endpoint does not implement "
                    + operation + " (a local stand-in such as dynalite). Set it on the table yourself.");
        }
    }

    static boolean unknownOperation(DynamoDbException e) {
        String code = e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
        return code != null && code.endsWith("UnknownOperationException");
    }
}
