package io.dynarestore.contracts.status;

import io.dynarestore.contracts.Envelope;
import java.time.Instant;

/**
 * The progress of a running restore as a whole, published by the planner every few seconds while
 * items are being written: what a dashboard with only a Kafka client shows. Rates are over the
 * time since the previous RestoreProgressed; {@code throttles} counts the writers' throttled calls
 * as of each segment's latest progress; {@code etaSeconds} is {@code null} while there is no
 * rate or estimate yet; {@code percent} is of the estimated items (at most 100).
 */
public record RestoreProgressed(
        String eventId,
        String restoreId,
        Integer schemaVersion,
        Instant occurredAt,
        long itemsWritten,
        long bytesWritten,
        Long estimatedItems,
        int segmentsCompleted,
        int segments,
        long wcuConsumed,
        double itemsPerSecond,
        double wcuPerSecond,
        Long etaSeconds,
        Double percent,
        long throttles)
        implements RestoreEvent {

    public static RestoreProgressed of(
            String restoreId,
            long items,
            long bytes,
            Long estimated,
            int segmentsCompleted,
            int segments,
            long wcu,
            double itemsPerSecond,
            double wcuPerSecond,
            long throttles) {
        Long eta = estimated == null || itemsPerSecond <= 0
                ? null
                : (long) Math.ceil(Math.max(0, estimated - items) / itemsPerSecond);
        Double percent = estimated == null || estimated <= 0
                ? null
                : Math.min(100.0, Math.round(1000.0 * items / estimated) / 10.0);
        return new RestoreProgressed(
                Envelope.newEventId(),
                restoreId,
                SCHEMA_VERSION,
                Envelope.now(),
                items,
                bytes,
                estimated,
                segmentsCompleted,
                segments,
                wcu,
                itemsPerSecond,
                wcuPerSecond,
                eta,
                percent,
                throttles);
    }
}
