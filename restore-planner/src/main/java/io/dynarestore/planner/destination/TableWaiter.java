package io.dynarestore.planner.destination;

import java.time.Duration;
import java.time.Instant;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.IndexStatus;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

/** Waits, with a bounded backoff, until a table and all its global indexes are ACTIVE. */
public final class TableWaiter {

    private TableWaiter() {}

    public static TableDescription untilActive(DynamoDbClient dynamo, String table, Duration timeout) {
        Instant deadline = Instant.now().plus(timeout);
        long sleep = 100;
        while (true) {
            TableDescription d = dynamo.describeTable(b -> b.tableName(table)).table();
            boolean indexesActive = !d.hasGlobalSecondaryIndexes()
                    || d.globalSecondaryIndexes().stream().allMatch(g -> g.indexStatus() == IndexStatus.ACTIVE);
            if (d.tableStatus() == TableStatus.ACTIVE && indexesActive) {
                return d;
            }
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException("table " + table + " is still " + d.tableStatus() + " after "
                        + timeout.toSeconds() + " s; check it in the DynamoDB console");
            }
            try {
                Thread.sleep(sleep);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for table " + table, e);
            }
            sleep = Math.min(sleep * 2, 5_000);
        }
    }
}
