package io.dynarestore.writer.segments;

import io.dynarestore.contracts.Topic;
import io.dynarestore.contracts.status.SegmentCompleted;
import io.dynarestore.contracts.status.SegmentProgressed;
import io.dynarestore.contracts.work.SegmentDispatched;
import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.codec.ItemSize;
import io.dynarestore.core.kafka.EventPublisher;
import io.dynarestore.core.pitr.KeyHash;
import io.dynarestore.core.pitr.SkipKeys;
import io.dynarestore.core.vault.CorruptDataFileException;
import io.dynarestore.core.vault.DataFileReader;
import io.dynarestore.core.vault.DataFileUnavailableException;
import io.dynarestore.core.vault.ExportLine;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Writes one segment: streams its data file from S3 line by line and writes in batches of 25
 * (never two writes of one key in a batch, which DynamoDB refuses). A BASE segment puts each
 * {@code Item} unless a later change supersedes its key (the restore's skip set); a DELTA
 * segment puts each final image and deletes keys that have none (or skips them when the
 * destination cannot hold them). Reports progress at a fixed interval and completion with exact
 * counts; a data file whose line count differs from its manifest fails the segment rather than
 * restoring a partial file silently.
 */
final class SegmentWriter {

    static final int BATCH = 25;

    private final AwsClients aws;
    private final EventPublisher publisher;
    private final BatchWriter batches;
    private final Duration progressInterval;
    private final Clock clock;
    private final SkipKeysCache skipSets;

    SegmentWriter(AwsClients aws, EventPublisher publisher, BatchWriter batches, Duration progressInterval, Clock clock) {
        this.skipSets = new SkipKeysCache(aws.s3(), 4);
        this.aws = aws;
        this.publisher = publisher;
        this.batches = batches;
        this.progressInterval = progressInterval;
        this.clock = clock;
    }

    /**
     * Writes the segment and publishes its completion.
     *
     * @param aborted polled between batches; when it turns true the segment is given up
     */
    SegmentCompleted write(SegmentDispatched work, String writer, BooleanSupplier aborted) {
        long started = clock.millis();
        var target = work.target();
        DynamoDbClient dynamo = aws.dynamo(target.account(), target.region());
        long items = 0;
        long deleted = 0;
        long skipped = 0;
        long bytes = 0;
        long wcu = 0;
        long nextProgress = started + progressInterval.toMillis();
        boolean delta = work.role() == SegmentDispatched.Role.DELTA;
        SkipKeys skip = work.skipKeys() == null ? null : skipSets.get(work.skipKeys());
        var batch = new ArrayList<WriteRequest>(BATCH);
        Set<List<AttributeValue>> keysInBatch = new HashSet<>();
        try (var reader = open(work)) {
            ExportLine line;
            while ((line = reader.next()) != null) {
                if (aborted.getAsBoolean() || Thread.currentThread().isInterrupted()) {
                    throw new SegmentAbortedException();
                }
                Map<String, AttributeValue> item = delta ? line.keys() : line.item();
                if (item == null) {
                    throw new PermanentWriteException(work.source().key() + " line " + reader.lines() + " has no "
                            + (delta ? "Keys" : "Item") + " member; it is not a " + (delta ? "delta" : "full-export")
                            + " data file", null);
                }
                List<AttributeValue> key = keyOf(item, target.keyAttributes(), work, reader.lines());
                WriteRequest write;
                if (delta && line.newImage() == null) {
                    if (!work.applyDeletes()) {
                        skipped++;
                        continue;
                    }
                    write = WriteRequest.builder().deleteRequest(d -> d.key(keyMap(item, target.keyAttributes())))
                            .build();
                    deleted++;
                } else {
                    Map<String, AttributeValue> image = delta ? line.newImage() : item;
                    if (skip != null && skip.contains(KeyHash.of(image, target.keyAttributes()))) {
                        skipped++;
                        continue;
                    }
                    write = WriteRequest.builder().putRequest(PutRequest.builder().item(image).build()).build();
                    long size = ItemSize.of(image);
                    items++;
                    bytes += size;
                    wcu += ItemSize.wcu(size);
                }
                if (!keysInBatch.add(key)) {
                    flush(dynamo, target.tableName(), batch, keysInBatch);
                    keysInBatch.add(key);
                }
                batch.add(write);
                if (batch.size() == BATCH) {
                    flush(dynamo, target.tableName(), batch, keysInBatch);
                }
                if (clock.millis() >= nextProgress) {
                    flush(dynamo, target.tableName(), batch, keysInBatch);
                    publisher.send(Topic.STATUS, work.restoreId(),
                            SegmentProgressed.of(work.restoreId(), work.segment(), items, bytes, writer));
                    nextProgress = clock.millis() + progressInterval.toMillis();
                }
            }
            flush(dynamo, target.tableName(), batch, keysInBatch);
            if (reader.lines() != work.source().itemCount()) {
                throw new PermanentWriteException(work.source().key() + " holds " + reader.lines()
                        + " items but its manifest says " + work.source().itemCount()
                        + "; the backup is inconsistent, so the segment was not counted as restored", null);
            }
        } catch (CorruptDataFileException e) {
            throw new PermanentWriteException(e.getMessage(), e);
        } catch (DataFileUnavailableException e) {
            throw new TransientWriteException(e.getMessage(), e);
        }
        var completed = SegmentCompleted.of(work.restoreId(), work.segment(), items, deleted, skipped, bytes, wcu,
                writer, clock.millis() - started);
        publisher.status(completed);
        return completed;
    }

    private DataFileReader open(SegmentDispatched work) {
        var source = work.source();
        try {
            return new DataFileReader(source.key(),
                    aws.s3().getObject(b -> b.bucket(source.bucket()).key(source.key())), source.md5Checksum());
        } catch (NoSuchKeyException e) {
            throw new PermanentWriteException("data file s3://" + source.bucket() + "/" + source.key()
                    + " is missing from the vault", e);
        } catch (S3Exception e) {
            if (e.statusCode() == 403) {
                throw new PermanentWriteException("access to s3://" + source.bucket() + "/" + source.key()
                        + " is denied; grant s3:GetObject on the vault to item-writer", e);
            }
            throw new TransientWriteException("S3 failed to serve " + source.key() + ": " + e.getMessage(), e);
        } catch (SdkClientException e) {
            throw new TransientWriteException("S3 is unreachable: " + e.getMessage(), e);
        }
    }

    private void flush(DynamoDbClient dynamo, String table, List<WriteRequest> batch,
                       Set<List<AttributeValue>> keysInBatch) {
        if (batch.isEmpty()) {
            return;
        }
        batches.write(dynamo, table, List.copyOf(batch));
        batch.clear();
        keysInBatch.clear();
    }

    private static Map<String, AttributeValue> keyMap(Map<String, AttributeValue> item, List<String> keyAttributes) {
        var key = new java.util.LinkedHashMap<String, AttributeValue>();
        keyAttributes.forEach(k -> key.put(k, item.get(k)));
        return key;
    }

    private static List<AttributeValue> keyOf(Map<String, AttributeValue> item, List<String> keyAttributes,
                                              SegmentDispatched work, long line) {
        var key = new ArrayList<AttributeValue>(keyAttributes.size());
        for (String name : keyAttributes) {
            AttributeValue v = item.get(name);
            if (v == null) {
                throw new PermanentWriteException(work.source().key() + " line " + line + " lacks key attribute "
                        + name + " of table " + work.target().tableName(), null);
            }
            key.add(v);
        }
        return key;
    }
}
