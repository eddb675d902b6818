package io.dynarestore.planner.undo;

import io.dynarestore.core.codec.ItemEquality;
import io.dynarestore.core.codec.ItemSize;
import io.dynarestore.core.pitr.KeyHash;
import io.dynarestore.core.retry.Backoff;
import io.dynarestore.core.retry.Pacer;
import io.dynarestore.core.retry.Throttling;
import io.dynarestore.core.undo.UndoJournal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Puts a table back as it was before a restore, from the restore's {@link UndoJournal}. Segments
 * are undone from the last to the first and each segment's batches from the newest to the
 * oldest, so that when a key was changed twice (a phased restore writes the base, then the
 * changes over it) its oldest entry, the image from before the restore, is applied last and
 * stays. Each batch of entries is read first: a key already as it was is left alone, a key the
 * restore created is deleted, any other is put back. Run again after a crash it ends in the same
 * state; for keys journaled once (every restore but a phased one) it then only pays reads.
 * Writes are paced ({@link Pacer}) at {@code unitsPerSecond}, halved whenever DynamoDB throttles
 * and grown back by a twentieth per batch, with jittered retries bounded by {@code backoff}.
 *
 * <p>Last writer wins: an application that changed a touched key after the restore loses that
 * change (ADR 0019).
 */
public final class Rollback {

    /** What a rollback did. */
    public record Result(long restored, long deleted, long unchanged, long entries) {}

    private final S3Client s3;
    private final DynamoDbClient dynamo;
    private final String table;
    private final List<String> keyAttributes;
    private final long maxRate;
    private final Backoff backoff;
    private double rate;
    private final Pacer pacer = new Pacer();

    public Rollback(
            S3Client s3,
            DynamoDbClient dynamo,
            String table,
            List<String> keyAttributes,
            long unitsPerSecond,
            Backoff backoff) {
        this.s3 = s3;
        this.dynamo = dynamo;
        this.table = table;
        this.keyAttributes = keyAttributes;
        this.maxRate = Math.max(1, unitsPerSecond);
        this.rate = maxRate;
        this.backoff = backoff;
    }

    /** Applies every entry of the journal under {@code prefix}. */
    public Result run(String bucket, String prefix) {
        long restored = 0;
        long deleted = 0;
        long unchanged = 0;
        long entries = 0;
        List<Integer> segments = new ArrayList<>(UndoJournal.segments(s3, bucket, prefix));
        Collections.reverse(segments);
        for (int segment : segments) {
            for (String key : UndoJournal.newestFirst(s3, bucket, prefix, segment)) {
                List<UndoJournal.Entry> batch = UndoJournal.read(s3, bucket, key);
                entries += batch.size();
                Map<KeyHash, Map<String, AttributeValue>> now = read(batch);
                var writes = new ArrayList<WriteRequest>();
                long units = 0;
                for (UndoJournal.Entry e : batch) {
                    Map<String, AttributeValue> current = now.get(KeyHash.of(e.key(), keyAttributes));
                    if (e.before() == null) {
                        if (current == null) {
                            unchanged++;
                        } else {
                            writes.add(WriteRequest.builder()
                                    .deleteRequest(d -> d.key(e.key()))
                                    .build());
                            deleted++;
                            units++;
                        }
                    } else if (current != null && ItemEquality.same(current, e.before())) {
                        unchanged++;
                    } else {
                        writes.add(WriteRequest.builder()
                                .putRequest(
                                        PutRequest.builder().item(e.before()).build())
                                .build());
                        restored++;
                        units += ItemSize.wcu(ItemSize.of(e.before()));
                    }
                }
                if (!writes.isEmpty()) {
                    pace(units);
                    write(writes);
                }
            }
        }
        return new Result(restored, deleted, unchanged, entries);
    }

    /** The current items of a batch's keys, by key hash. */
    private Map<KeyHash, Map<String, AttributeValue>> read(List<UndoJournal.Entry> batch) {
        return ConsistentReads.read(
                dynamo, table, batch.stream().map(UndoJournal.Entry::key).toList(), keyAttributes, backoff);
    }

    private void write(List<WriteRequest> writes) {
        List<WriteRequest> pending = writes;
        for (int attempt = 1; ; attempt++) {
            List<WriteRequest> ask = pending;
            try {
                var response = dynamo.batchWriteItem(b -> b.requestItems(Map.of(table, ask)));
                var left = response.hasUnprocessedItems()
                        ? response.unprocessedItems().getOrDefault(table, List.of())
                        : List.<WriteRequest>of();
                if (left.isEmpty()) {
                    rate = Math.min(maxRate, rate + maxRate / 20.0);
                    return;
                }
                pending = left;
                rate = Math.max(1, rate / 2);
            } catch (DynamoDbException e) {
                if (!Throttling.of(e) && e.statusCode() < 500) {
                    throw e;
                }
                rate = Math.max(1, rate / 2);
            }
            retryAfter(attempt, "writing to " + table);
        }
    }

    private void retryAfter(int attempt, String what) {
        if (attempt >= backoff.maxAttempts()) {
            throw new IllegalStateException(
                    "DynamoDB kept throttling or failing while " + what + " after " + attempt + " attempts");
        }
        if (!backoff.pause(Math.min(attempt, 6))) {
            throw new IllegalStateException("interrupted while " + what);
        }
    }

    /** Waits until {@code units} more fit into the current rate. */
    private void pace(long units) {
        long wait = pacer.reserve(units, rate, System.nanoTime());
        if (wait > 0) {
            try {
                Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while pacing a rollback", e);
            }
        }
    }
}
