package io.dynarestore.writer.segments;

import io.dynarestore.contracts.status.SegmentCancelled;
import io.dynarestore.contracts.status.SegmentFailed;
import io.dynarestore.contracts.work.SegmentDispatched;
import io.dynarestore.core.filter.InvalidFilterException;
import io.dynarestore.core.kafka.EventPublisher;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One attempt at a segment, on a worker thread, and what became of it. Rules: a cancel publishes
 * SegmentCancelled with what was written; a permanent failure (the data file is missing, corrupt
 * or denied; the filter cannot apply) publishes SegmentFailed and carries its reason, for the
 * dead letter; a failure while DynamoDB or S3 is down is an outage (no attempt spent); any other
 * failure is worth a retry; an abort (the partition moved, the replica stops) is redone elsewhere.
 */
record SegmentAttempt(
        SegmentWriter writer, EventPublisher publisher, Cancellations cancellations, Outages outages, String writerId) {

    private static final Logger log = LoggerFactory.getLogger(SegmentAttempt.class);

    /** How an attempt ended, with the reason of a permanent failure. */
    record Outcome(Kind kind, String reason) {
        static Outcome of(Kind kind) {
            return new Outcome(kind, null);
        }
    }

    enum Kind {
        DONE,
        CANCELLED,
        FAILED,
        RETRY,
        OUTAGE,
        ABORTED
    }

    Outcome run(SegmentDispatched segment, AtomicBoolean abort, Checkpoint resume, Consumer<Checkpoint> checkpoints) {
        try {
            writer.write(
                    segment,
                    writerId,
                    abort::get,
                    () -> cancellations.cancelled(segment.restoreId()),
                    resume,
                    checkpoints);
            return Outcome.of(Kind.DONE);
        } catch (SegmentCancelledException e) {
            log.info(
                    "restore {} segment {} stopped by a cancel after {} items",
                    segment.restoreId(),
                    segment.segment(),
                    e.items);
            publisher.status(SegmentCancelled.of(segment.restoreId(), segment.segment(), e.items, e.bytes, writerId));
            return Outcome.of(Kind.CANCELLED);
        } catch (SegmentAbortedException e) {
            return Outcome.of(Kind.ABORTED);
        } catch (PermanentWriteException | InvalidFilterException e) {
            log.warn("restore {} segment {} failed: {}", segment.restoreId(), segment.segment(), e.getMessage());
            publisher.status(SegmentFailed.of(segment.restoreId(), segment.segment(), e.getMessage(), 0, writerId));
            return new Outcome(Kind.FAILED, e.getMessage());
        } catch (RuntimeException e) {
            var t = segment.target();
            if (outages.down(t.account(), t.region(), t.tableName())) {
                log.warn(
                        "restore {} segment {} waits for DynamoDB or S3 to come back: {}",
                        segment.restoreId(),
                        segment.segment(),
                        e.toString());
                return Outcome.of(Kind.OUTAGE);
            }
            log.warn(
                    "restore {} segment {} interrupted by a transient failure: {}",
                    segment.restoreId(),
                    segment.segment(),
                    e.toString());
            return Outcome.of(Kind.RETRY);
        }
    }
}
