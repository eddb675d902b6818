package io.dynarestore.writer.segments;

import io.dynarestore.core.retry.Backoff;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * Writes one batch (at most 25 puts) with BatchWriteItem until every item is in: the
 * UnprocessedItems of each answer are sent again after a jittered, growing pause, and so are
 * throttled or failed calls. No item is ever dropped: when the retries run out the batch fails
 * as a whole with {@link TransientWriteException}, and the segment is written again later.
 */
final class BatchWriter {

    private final Backoff backoff;

    BatchWriter(Backoff backoff) {
        this.backoff = backoff;
    }

    /** Returns the number of BatchWriteItem calls it took (1 when nothing had to be retried). */
    int write(DynamoDbClient dynamo, String table, List<WriteRequest> batch) {
        Map<String, List<WriteRequest>> pending = Map.of(table, batch);
        for (int attempt = 1; ; attempt++) {
            try {
                var request = software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest.builder()
                        .requestItems(pending).build();
                BatchWriteItemResponse response = dynamo.batchWriteItem(request);
                List<WriteRequest> unprocessed = response.hasUnprocessedItems()
                        ? response.unprocessedItems().getOrDefault(table, List.of()) : List.of();
                if (unprocessed.isEmpty()) {
                    return attempt;
                }
                pending = Map.of(table, unprocessed);
                if (attempt >= backoff.maxAttempts()) {
                    throw new TransientWriteException(unprocessed.size() + " items of a batch for " + table
                            + " were still unprocessed after " + attempt + " attempts (the table is throttling)");
                }
            } catch (ResourceNotFoundException e) {
                throw new PermanentWriteException("table " + table + " does not exist (deleted during the restore?)", e);
            } catch (DynamoDbException e) {
                if (!retryable(e) || attempt >= backoff.maxAttempts()) {
                    if (retryable(e)) {
                        throw new TransientWriteException("DynamoDB kept failing for " + table + ": "
                                + e.awsErrorDetails().errorMessage(), e);
                    }
                    throw new PermanentWriteException("DynamoDB refused a batch for " + table + ": "
                            + e.awsErrorDetails().errorMessage(), e);
                }
            } catch (SdkClientException e) {
                if (attempt >= backoff.maxAttempts()) {
                    throw new TransientWriteException("DynamoDB is unreachable: " + e.getMessage(), e);
                }
            }
            if (!backoff.pause(attempt)) {
                throw new SegmentAbortedException();
            }
        }
    }

    /**
     * Reads the current items of up to 100 keys (consistently), retrying UnprocessedKeys and
     * throttling like writes; returns them by key values, in key-attribute order.
     */
    java.util.Map<List<software.amazon.awssdk.services.dynamodb.model.AttributeValue>,
            java.util.Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue>> read(
            DynamoDbClient dynamo, String table, List<String> keyAttributes,
            List<java.util.Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue>> keys) {
        var found = new java.util.HashMap<List<software.amazon.awssdk.services.dynamodb.model.AttributeValue>,
                java.util.Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue>>();
        var pending = software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes.builder().keys(keys)
                .consistentRead(true).build();
        for (int attempt = 1; ; attempt++) {
            try {
                var request = software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest.builder()
                        .requestItems(Map.of(table, pending)).build();
                var response = dynamo.batchGetItem(request);
                for (var item : response.responses().getOrDefault(table, List.of())) {
                    found.put(keyAttributes.stream().map(item::get).toList(), item);
                }
                var left = response.hasUnprocessedKeys() ? response.unprocessedKeys().get(table) : null;
                if (left == null || left.keys().isEmpty()) {
                    return found;
                }
                pending = left;
                if (attempt >= backoff.maxAttempts()) {
                    throw new TransientWriteException(left.keys().size() + " keys of " + table
                            + " could not be read after " + attempt + " attempts (the table is throttling)");
                }
            } catch (ResourceNotFoundException e) {
                throw new PermanentWriteException("table " + table + " does not exist (deleted during the restore?)", e);
            } catch (DynamoDbException e) {
                if (!retryable(e) || attempt >= backoff.maxAttempts()) {
                    throw retryable(e) ? new TransientWriteException("DynamoDB kept failing for " + table + ": "
                            + e.awsErrorDetails().errorMessage(), e)
                            : new PermanentWriteException("DynamoDB refused to read " + table + ": "
                            + e.awsErrorDetails().errorMessage(), e);
                }
            } catch (SdkClientException e) {
                if (attempt >= backoff.maxAttempts()) {
                    throw new TransientWriteException("DynamoDB is unreachable: " + e.getMessage(), e);
                }
            }
            if (!backoff.pause(attempt)) {
                throw new SegmentAbortedException();
            }
        }
    }

    static boolean retryable(DynamoDbException e) {
        if (e.isThrottlingException() || e.statusCode() >= 500) {
            return true;
        }
        String code = e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
        return "ProvisionedThroughputExceededException".equals(code) || "ThrottlingException".equals(code)
                || "RequestLimitExceeded".equals(code) || "LimitExceededException".equals(code);
    }
}
