package io.dynarestore.protector.changelog;

import io.dynarestore.contracts.BackupIds;
import io.dynarestore.contracts.Json;
import io.dynarestore.core.pitr.KeyRange;
import io.dynarestore.core.vault.ExportMetadata;
import io.dynarestore.core.vault.ExportMetadata.ShardGroup;
import io.dynarestore.core.vault.IncrementalExportWriter;
import io.dynarestore.core.vault.VaultLayout;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.Deflater;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * One flush of a capture: the writes of [from, to) as one export of the change log, its
 * checkpoint ({@code capture.json}) before its {@code export.json}, so that a listed export always
 * says where reading resumes after it. The writes of one second get that second's microseconds
 * 0, 1, 2, ... in the order they were read (a stable sort by second keeps each key's order, which
 * its shard gives), so that of two writes of a key in one second the later one wins. Touches no
 * state of the capture: it runs on a writer thread while the capture reads on.
 */
final class ChangeLogFlush {

    private final S3Client s3;
    private final VaultLayout layout;
    private final String account;
    private final String region;
    private final String table;
    private final String streamArn;
    private final Instant from;
    private final Instant to;
    private final List<CapturedWrite> writes;
    private final Map<String, String> flushedSequences;
    private final List<String> finished;
    private final int linesPerFile;
    private final ShardGroup group;
    private final List<String> keyAttributes;

    /**
     * @param writes           the writes of [from, to), in the order read
     * @param flushedSequences each shard's last position in the vault before this flush
     * @param finished         the shards read to their end with no write left after {@code to}
     * @param group            the shard group captured, or null: every shard
     * @param keyAttributes    the table's key attributes, partition key first (none: files not sliced)
     */
    ChangeLogFlush(
            S3Client s3,
            VaultLayout layout,
            String account,
            String region,
            String table,
            String streamArn,
            Instant from,
            Instant to,
            List<CapturedWrite> writes,
            Map<String, String> flushedSequences,
            List<String> finished,
            int linesPerFile,
            ShardGroup group,
            List<String> keyAttributes) {
        this.s3 = s3;
        this.layout = layout;
        this.account = account;
        this.region = region;
        this.table = table;
        this.streamArn = streamArn;
        this.from = from;
        this.to = to;
        this.writes = writes;
        this.flushedSequences = flushedSequences;
        this.finished = finished;
        this.linesPerFile = linesPerFile;
        this.group = group;
        this.keyAttributes = List.copyOf(keyAttributes);
    }

    /** What a flush put into the vault, and each shard's position after it. */
    record Written(ExportMetadata export, long records, Map<String, String> sequences) {}

    Written write() {
        var sequences = new HashMap<>(flushedSequences);
        for (int i = 0; i < writes.size(); i++) {
            CapturedWrite w = writes.get(i);
            // read order, a page of one shard at a time: the last write of each run is its shard's latest
            if (i == writes.size() - 1 || !writes.get(i + 1).shardId().equals(w.shardId())) {
                sequences.put(w.shardId(), w.sequence());
            }
        }
        sequences.keySet().removeIf(finished::contains);
        writes.sort(Comparator.comparingLong(CapturedWrite::second));
        String exportId = StreamCapture.exportPrefix(group) + BackupIds.stamp(from);
        // a change log is written all day and read rarely: gzip's fastest level, a tenth larger, a third of the CPU
        var writer = new IncrementalExportWriter(s3, layout, account, region, table, exportId, from, to, linesPerFile)
                .compressionLevel(Deflater.BEST_SPEED)
                .shardGroup(group);
        if (!keyAttributes.isEmpty()) {
            writer.keySlices(KeyRange.slicer(keyAttributes, IncrementalExportWriter.KEY_SLICES));
        }
        long second = Long.MIN_VALUE;
        int ordinal = 0;
        try (var part = writer.openPart()) {
            for (CapturedWrite w : writes) {
                ordinal = w.second() == second ? Math.min(ordinal + 1, 999_999) : 0;
                second = w.second();
                part.writeChange(w.second() * 1_000_000L + ordinal, w.body(), w.sizeBytes());
            }
        }
        var checkpoint = new CaptureCheckpoint(streamArn, to, sequences, finished);
        s3.putObject(
                b -> b.bucket(layout.bucket())
                        .key(layout.exportPrefix(account, region, table, exportId) + CaptureCheckpoint.FILE)
                        .contentType("application/json"),
                RequestBody.fromBytes(Json.toBytes(checkpoint)));
        return new Written(writer.finish(), writes.size(), Map.copyOf(sequences));
    }
}
