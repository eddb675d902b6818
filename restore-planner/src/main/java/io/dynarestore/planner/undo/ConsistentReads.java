package io.dynarestore.planner.undo;

import io.dynarestore.core.pitr.KeyHash;
import io.dynarestore.core.retry.Backoff;
import io.dynarestore.core.retry.Throttling;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;

/**
 * Reads up to 100 keys of a table with consistent reads (BatchGetItem), asking again for the
 * keys DynamoDB leaves unprocessed and after throttling or a 5xx, with jittered pauses, at most
 * {@code backoff.maxAttempts()} times. Items come back by the hash of their key.
 */
public final class ConsistentReads {

    private ConsistentReads() {}

    public static Map<KeyHash, Map<String, AttributeValue>> read(
            DynamoDbClient dynamo,
            String table,
            List<Map<String, AttributeValue>> keys,
            List<String> keyAttributes,
            Backoff backoff) {
        var found = new HashMap<KeyHash, Map<String, AttributeValue>>();
        KeysAndAttributes pending =
                KeysAndAttributes.builder().consistentRead(true).keys(keys).build();
        for (int attempt = 1; ; attempt++) {
            KeysAndAttributes ask = pending;
            try {
                var response = dynamo.batchGetItem(b -> b.requestItems(Map.of(table, ask)));
                for (var item : response.responses().getOrDefault(table, List.of())) {
                    found.put(KeyHash.of(item, keyAttributes), item);
                }
                var left = response.hasUnprocessedKeys()
                        ? response.unprocessedKeys().get(table)
                        : null;
                if (left == null || left.keys().isEmpty()) {
                    return found;
                }
                pending = left;
            } catch (DynamoDbException e) {
                if (!Throttling.of(e) && e.statusCode() < 500) {
                    throw e;
                }
            }
            if (attempt >= backoff.maxAttempts()) {
                throw new IllegalStateException("DynamoDB kept throttling, failing or leaving keys of " + table
                        + " unread after " + attempt + " attempts");
            }
            if (!backoff.pause(Math.min(attempt, 6))) {
                throw new IllegalStateException("interrupted while reading " + table);
            }
        }
    }
}
