package io.dynarestore.planner.capacity;

import io.dynarestore.contracts.status.CapacityPlan;
import io.dynarestore.contracts.status.CapacityUnits;
import io.dynarestore.contracts.status.TableRef;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.planner.destination.TableSettings;
import io.dynarestore.planner.destination.TableWaiter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexUpdate;
import software.amazon.awssdk.services.dynamodb.model.LimitExceededException;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughput;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputDescription;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.UpdateTableRequest;

/**
 * Raises an existing provisioned table's write capacity (and its GSIs') for a restore and puts
 * it back after. Rules: raise only what is below the target; raise only when every raised part
 * still has one of the 4 decreases DynamoDB allows at any time of the day
 * ({@code NumberOfDecreasesToday} below 4), so that the put-back cannot be refused by the decrease
 * quota; put back only the write units (read units someone changed meanwhile stay theirs).
 */
public final class CapacityManager {

    /** DynamoDB allows this many decreases per table (and per GSI) at any time of a UTC day. */
    public static final int FREE_DECREASES_PER_DAY = 4;

    private final AwsClients aws;
    private final boolean enabled;
    private final long targetWriteUnits;
    private final Duration activeTimeout;

    /**
     * @param enabled          whether restores may raise capacity at all
     * @param targetWriteUnits the write units a raised table (and GSI) gets for the restore
     */
    public CapacityManager(AwsClients aws, boolean enabled, long targetWriteUnits, Duration activeTimeout) {
        this.aws = aws;
        this.enabled = enabled;
        this.targetWriteUnits = targetWriteUnits;
        this.activeTimeout = activeTimeout;
    }

    private DynamoDbClient dynamo(TableRef table) {
        return aws.dynamo(table.account(), table.region());
    }

    /** What a restore writing into {@code table} would do to its write capacity, judged now. */
    public CapacityPlan plan(TableRef table) {
        return plan(
                dynamo(table).describeTable(b -> b.tableName(table.tableName())).table());
    }

    CapacityPlan plan(TableDescription d) {
        if (TableSettings.isOnDemand(d)) {
            return CapacityPlan.unchanged(
                    "Table " + d.tableName() + " is on-demand (PAY_PER_REQUEST): it scales "
                            + "with the writes, so its capacity is not changed.",
                    List.of());
        }
        List<CapacityUnits> current = units(d);
        if (!enabled) {
            return CapacityPlan.unchanged(
                    "Raising capacity is off (planner.capacity.raise); the restore writes at " + "the table's "
                            + writeUnits(current) + ".",
                    current);
        }
        var target = new ArrayList<CapacityUnits>();
        var raised = new ArrayList<String>();
        var exhausted = new ArrayList<String>();
        for (CapacityUnits u : current) {
            if (u.writeCapacityUnits() < targetWriteUnits) {
                target.add(new CapacityUnits(u.index(), u.readCapacityUnits(), targetWriteUnits));
                raised.add(u.what());
                int decreases = decreasesToday(d, u.index());
                if (decreases >= FREE_DECREASES_PER_DAY) {
                    exhausted.add(u.what() + " (" + decreases + " decreases today)");
                }
            } else {
                target.add(u);
            }
        }
        if (raised.isEmpty()) {
            return CapacityPlan.unchanged(
                    "Table " + d.tableName() + " has " + writeUnits(current) + ", at least the " + targetWriteUnits
                            + " WCU a restore raises to; its capacity is not changed.",
                    current);
        }
        if (!exhausted.isEmpty()) {
            return CapacityPlan.unchanged(
                    "Not raised: DynamoDB allows " + FREE_DECREASES_PER_DAY + " decreases of "
                            + "a table's capacity at any time of a day, and " + String.join(", ", exhausted) + " of "
                            + d.tableName()
                            + " used them, so the original capacity could not be put back right after the "
                            + "restore. It writes at the table's " + writeUnits(current) + ".",
                    current);
        }
        return new CapacityPlan(
                true,
                "Raising the write capacity of " + String.join(", ", raised) + " of "
                        + d.tableName() + " to " + targetWriteUnits + " WCU for the restore; the original "
                        + writeUnits(current) + " are put back when it ends, however it ends.",
                current,
                target);
    }

    /** The current units of what {@code plan} raises, or a reason why it can no longer be raised. */
    public Raise prepare(TableRef table, CapacityPlan plan) {
        TableDescription d =
                dynamo(table).describeTable(b -> b.tableName(table.tableName())).table();
        CapacityPlan now = plan(d);
        if (!now.raise()) {
            return new Raise(null, null, now.reason());
        }
        return new Raise(now.current(), now.target(), null);
    }

    /** Original values to record and values to raise to, or why not to raise ({@code refusal}). */
    public record Raise(List<CapacityUnits> original, List<CapacityUnits> raised, String refusal) {}

    /** Raises what is still below {@code raised}; safe to repeat. Waits until the table is ACTIVE again. */
    public void raise(TableRef table, List<CapacityUnits> raised) {
        DynamoDbClient dynamo = dynamo(table);
        TableDescription d =
                dynamo.describeTable(b -> b.tableName(table.tableName())).table();
        Map<String, CapacityUnits> now = byPart(units(d));
        var changes = new ArrayList<CapacityUnits>();
        for (CapacityUnits want : raised) {
            CapacityUnits have = now.get(key(want.index()));
            if (have != null && have.writeCapacityUnits() < want.writeCapacityUnits()) {
                changes.add(new CapacityUnits(want.index(), have.readCapacityUnits(), want.writeCapacityUnits()));
            }
        }
        update(dynamo, table.tableName(), changes);
    }

    /** The outcome of putting capacity back. */
    public sealed interface PutBack {
        /** The original write units are back (or were never changed). */
        record Done(List<CapacityUnits> restored, String note) implements PutBack {}

        /** DynamoDB refused for now (the decrease quota); try again later. */
        record Later(String reason) implements PutBack {}
    }

    /** Puts the write units of {@code original} back where they differ now. */
    public PutBack putBack(TableRef table, List<CapacityUnits> original) {
        DynamoDbClient dynamo = dynamo(table);
        TableDescription d;
        try {
            d = dynamo.describeTable(b -> b.tableName(table.tableName())).table();
        } catch (ResourceNotFoundException e) {
            return new PutBack.Done(
                    List.of(),
                    "Table " + table.tableName() + " no longer exists; there is no " + "capacity to put back.");
        }
        if (TableSettings.isOnDemand(d)) {
            return new PutBack.Done(
                    List.of(),
                    "Table " + table.tableName() + " was switched to on-demand; there "
                            + "is no provisioned capacity to put back.");
        }
        Map<String, CapacityUnits> now = byPart(units(d));
        var changes = new ArrayList<CapacityUnits>();
        var restored = new ArrayList<CapacityUnits>();
        for (CapacityUnits was : original) {
            CapacityUnits have = now.get(key(was.index()));
            if (have == null) {
                continue; // an index deleted meanwhile
            }
            restored.add(new CapacityUnits(was.index(), have.readCapacityUnits(), was.writeCapacityUnits()));
            if (have.writeCapacityUnits() != was.writeCapacityUnits()) {
                changes.add(new CapacityUnits(was.index(), have.readCapacityUnits(), was.writeCapacityUnits()));
            }
        }
        try {
            update(dynamo, table.tableName(), changes);
        } catch (LimitExceededException e) {
            return new PutBack.Later("DynamoDB refused to lower the capacity of " + table.tableName() + " now ("
                    + e.awsErrorDetails().errorMessage() + ")");
        }
        return new PutBack.Done(restored, null);
    }

    private void update(DynamoDbClient dynamo, String tableName, List<CapacityUnits> changes) {
        if (changes.isEmpty()) {
            return;
        }
        var request = UpdateTableRequest.builder().tableName(tableName);
        var gsis = new ArrayList<GlobalSecondaryIndexUpdate>();
        for (CapacityUnits c : changes) {
            var throughput = ProvisionedThroughput.builder()
                    .readCapacityUnits(c.readCapacityUnits())
                    .writeCapacityUnits(c.writeCapacityUnits())
                    .build();
            if (c.isTable()) {
                request.provisionedThroughput(throughput);
            } else {
                gsis.add(GlobalSecondaryIndexUpdate.builder()
                        .update(u -> u.indexName(c.index()).provisionedThroughput(throughput))
                        .build());
            }
        }
        if (!gsis.isEmpty()) {
            request.globalSecondaryIndexUpdates(gsis);
        }
        dynamo.updateTable(request.build());
        TableWaiter.untilActive(dynamo, tableName, activeTimeout);
    }

    static List<CapacityUnits> units(TableDescription d) {
        var units = new ArrayList<CapacityUnits>();
        units.add(of(null, d.provisionedThroughput()));
        if (d.hasGlobalSecondaryIndexes()) {
            for (GlobalSecondaryIndexDescription g : d.globalSecondaryIndexes()) {
                units.add(of(g.indexName(), g.provisionedThroughput()));
            }
        }
        return units;
    }

    private static CapacityUnits of(String index, ProvisionedThroughputDescription p) {
        return new CapacityUnits(
                index,
                p == null || p.readCapacityUnits() == null ? 0 : p.readCapacityUnits(),
                p == null || p.writeCapacityUnits() == null ? 0 : p.writeCapacityUnits());
    }

    private static int decreasesToday(TableDescription d, String index) {
        ProvisionedThroughputDescription p = index == null
                ? d.provisionedThroughput()
                : d.globalSecondaryIndexes().stream()
                        .filter(g -> g.indexName().equals(index))
                        .findFirst()
                        .map(GlobalSecondaryIndexDescription::provisionedThroughput)
                        .orElse(null);
        return p == null || p.numberOfDecreasesToday() == null
                ? 0
                : p.numberOfDecreasesToday().intValue();
    }

    private static Map<String, CapacityUnits> byPart(List<CapacityUnits> units) {
        return units.stream().collect(Collectors.toMap(u -> key(u.index()), u -> u));
    }

    private static String key(String index) {
        return index == null ? "" : "index:" + index;
    }

    private static String writeUnits(List<CapacityUnits> units) {
        return units.stream()
                .map(u -> u.writeCapacityUnits() + " WCU (" + u.what() + ")")
                .collect(Collectors.joining(", "));
    }
}
