package io.dynarestore.writer.segments;

import io.dynarestore.core.retry.Backoff;
import io.dynarestore.core.retry.Throttling;
import io.dynarestore.writer.capacity.WriteBudgets;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * Writes one batch (at most 25 writes) with BatchWriteItem until every item is in. Each send is
 * paid for in the table's lane first (the units of what is still pending), so retries count
 * against the budget too. The UnprocessedItems of an answer and throttling errors tell the lane
 * to slow down, and are sent again after a jittered, growing pause. Outages (unreachable, 5xx)
 * go to the table's circuit breaker; while it is open the batch waits without spending attempts.
 * No item is ever dropped: when the attempts run out the batch fails as a whole with
 * {@link TransientWriteException}, and the segment resumes from its last checkpoint later.
 */
final class BatchWriter {

    private final Backoff backoff;
    private final Outages outages;

    BatchWriter(Backoff backoff, Outages outages) {
        this.backoff = backoff;
        this.outages = outages;
    }

    /** The breaker and lane of one destination table, and the segment's abort flag. */
    record Destination(
            DynamoDbClient dynamo,
            String table,
            WriteBudgets.Lane lane,
            CircuitBreaker breaker,
            BooleanSupplier aborted) {}

    /** One call of a batch: what it leaves to do, in words, or {@code null} when all is done. */
    @FunctionalInterface
    private interface Call {
        String left();
    }

    /** Returns the number of BatchWriteItem calls it took (1 when nothing had to be retried). */
    int write(Destination d, List<WriteRequest> batch) {
        String table = d.table();
        var pending = new ArrayList<>(batch);
        int[] calls = {0};
        try {
            retryingWrite(d, table, pending, calls);
        } catch (SegmentAbortedException e) {
            throw new SegmentAbortedException(List.copyOf(pending)); // what is left of the batch was not written
        }
        return calls[0];
    }

    private void retryingWrite(Destination d, String table, List<WriteRequest> pending, int[] calls) {
        retrying(d, "write to", () -> units(d.lane(), pending), () -> {
            calls[0]++;
            BatchWriteItemResponse response = d.dynamo()
                    .batchWriteItem(BatchWriteItemRequest.builder()
                            .requestItems(Map.of(table, List.copyOf(pending)))
                            .build());
            List<WriteRequest> unprocessed = response.hasUnprocessedItems()
                    ? response.unprocessedItems().getOrDefault(table, List.of())
                    : List.of();
            if (unprocessed.isEmpty()) {
                return null;
            }
            d.lane().throttled();
            pending.clear();
            pending.addAll(unprocessed);
            return unprocessed.size() + " items of a batch for " + table + " were still unprocessed";
        });
    }

    /** A conditional write DynamoDB refused, with the item the key held when read right after ({@code null}: absent). */
    record Refusal(Map<String, AttributeValue> found) {}

    /**
     * Puts or deletes one item on {@code condition}, paid for in the lane and retried like a
     * batch; returns {@code null} once written, or the refusal when the condition failed (the
     * key's item is then read, consistently, for the conflict report).
     */
    Refusal writeIf(Destination d, WriteOp op, RevertCondition condition) {
        boolean[] refused = {false};
        retrying(d, "write to", () -> op.delete() ? 1 : d.lane().cost(op.image()), () -> {
            try {
                if (op.delete()) {
                    d.dynamo()
                            .deleteItem(b -> b.tableName(d.table())
                                    .key(op.keys())
                                    .conditionExpression(condition.expression())
                                    .expressionAttributeNames(condition.names())
                                    .expressionAttributeValues(condition.values()));
                } else {
                    d.dynamo()
                            .putItem(b -> b.tableName(d.table())
                                    .item(op.image())
                                    .conditionExpression(condition.expression())
                                    .expressionAttributeNames(condition.names())
                                    .expressionAttributeValues(condition.values()));
                }
            } catch (ConditionalCheckFailedException e) {
                refused[0] = true;
            }
            return null;
        });
        if (!refused[0]) {
            return null;
        }
        var found = new ArrayList<Map<String, AttributeValue>>(1);
        retrying(d, "read", null, () -> {
            var item = d.dynamo()
                    .getItem(b -> b.tableName(d.table()).key(op.keys()).consistentRead(true));
            found.add(item.hasItem() && !item.item().isEmpty() ? item.item() : null);
            return null;
        });
        return new Refusal(found.get(found.size() - 1));
    }

    /**
     * Reads the current items of up to 100 keys (consistently), retrying UnprocessedKeys and
     * throttling like writes; returns them by key values, in key-attribute order. Reads before
     * writes use read capacity, so they neither pay in the write lane nor slow it down; the reads
     * of a dry run ({@code paced}) are its only traffic, and pay one unit per key in the lane, so a
     * dry run goes no faster than the restore would.
     */
    Map<List<AttributeValue>, Map<String, AttributeValue>> read(
            Destination d, List<String> keyAttributes, List<Map<String, AttributeValue>> keys, boolean paced) {
        String table = d.table();
        var found = new HashMap<List<AttributeValue>, Map<String, AttributeValue>>();
        KeysAndAttributes[] pending = {
            KeysAndAttributes.builder().keys(keys).consistentRead(true).build()
        };
        retrying(d, "read", paced ? () -> pending[0].keys().size() : null, () -> {
            var response = d.dynamo()
                    .batchGetItem(BatchGetItemRequest.builder()
                            .requestItems(Map.of(table, pending[0]))
                            .build());
            for (var item : response.responses().getOrDefault(table, List.of())) {
                found.put(keyAttributes.stream().map(item::get).toList(), item);
            }
            var left =
                    response.hasUnprocessedKeys() ? response.unprocessedKeys().get(table) : null;
            if (left == null || left.keys().isEmpty()) {
                return null;
            }
            pending[0] = left;
            return left.keys().size() + " keys of " + table + " could not be read";
        });
        return found;
    }

    /**
     * Calls until nothing is left: each call is paid for in the lane first ({@code units}, or
     * nothing for reads) and waits for the table's breaker. Throttling slows the lane (writes),
     * outages feed the breaker; only calls made while the breaker is closed spend attempts.
     */
    private void retrying(Destination d, String what, LongSupplier units, Call call) {
        for (int attempt = 1; ; ) {
            if (units != null && !d.lane().acquire(units.getAsLong(), d.aborted())
                    || !outages.permit(d.breaker(), d.aborted())) {
                throw new SegmentAbortedException();
            }
            boolean counting = Outages.counting(d.breaker());
            long started = System.nanoTime();
            try {
                String left = call.left();
                Outages.succeeded(d.breaker(), started);
                if (left == null) {
                    return;
                }
                if (attempt >= backoff.maxAttempts()) {
                    throw new TransientWriteException(
                            left + " after " + attempt + " attempts (the table is " + "throttling)");
                }
            } catch (ResourceNotFoundException e) {
                Outages.succeeded(d.breaker(), started);
                throw new PermanentWriteException(
                        "table " + d.table() + " does not exist (deleted during the " + "restore?)", e);
            } catch (DynamoDbException e) {
                if (Throttling.of(e)) {
                    Outages.succeeded(d.breaker(), started);
                    if (units != null) {
                        d.lane().throttled();
                    }
                } else if (e.statusCode() >= 500) {
                    Outages.failed(d.breaker(), started, e);
                } else {
                    Outages.succeeded(d.breaker(), started);
                    throw new PermanentWriteException(
                            "DynamoDB refused to " + what + " " + d.table() + ": " + message(e), e);
                }
                if (counting && attempt >= backoff.maxAttempts()) {
                    throw new TransientWriteException("DynamoDB kept failing for " + d.table() + ": " + message(e), e);
                }
            } catch (SdkClientException e) {
                Outages.failed(d.breaker(), started, e);
                if (counting && attempt >= backoff.maxAttempts()) {
                    throw new TransientWriteException("DynamoDB is unreachable: " + e.getMessage(), e);
                }
            }
            if (counting) {
                attempt++;
            }
            d.lane().retried();
            if (!backoff.pause(Math.min(attempt, 6))) {
                throw new SegmentAbortedException();
            }
        }
    }

    private static String message(DynamoDbException e) {
        return e.awsErrorDetails() == null
                ? e.getMessage()
                : e.awsErrorDetails().errorMessage();
    }

    private static long units(WriteBudgets.Lane lane, List<WriteRequest> writes) {
        long units = 0;
        for (WriteRequest w : writes) {
            units += w.putRequest() != null ? lane.cost(w.putRequest().item()) : 1;
        }
        return units;
    }
}
