package io.dynarestore.protector.changelog;

import io.dynarestore.contracts.BackupIds;
import io.dynarestore.contracts.Json;
import io.dynarestore.core.vault.ExportLine;
import io.dynarestore.core.vault.ExportMetadata;
import io.dynarestore.core.vault.IncrementalExportWriter;
import io.dynarestore.core.vault.VaultCatalog;
import io.dynarestore.core.vault.VaultLayout;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CommonPrefix;

/**
 * The continuous change log of one table, from its DynamoDB Stream (NEW_AND_OLD_IMAGES) into
 * the vault's incremental-export layout. Every write read is buffered; every flush interval the
 * writes of [{@code from}, {@code to}) go into one export, {@code to} being a whole second before
 * which every shard has been read, so that exports chain without gaps or overlaps and every second
 * they cover restores exactly. Each export holds the checkpoint that follows it
 * ({@link CaptureCheckpoint}, written before {@code export.json}), so that whoever captures next
 * resumes after the last record the vault holds: none lost, none twice. A position the stream has
 * trimmed is a gap: reported, and the capture starts over at the stream's head.
 *
 * <p>Write times. Streams give each record's time to the second; the vault wants microseconds.
 * The records of one second get {@code second + n} microseconds in the order read, which is each
 * key's write order: a restore to a second sees the same state, and of two writes in one second
 * the later one wins. Not thread-safe: one thread calls {@link #step()}.
 */
public final class StreamCapture {

    static final String EXPORT_PREFIX = "stream-";

    private final DynamoDbStreamsClient streams;
    private final DynamoDbClient dynamo;
    private final S3Client s3;
    private final VaultLayout layout;
    private final String account;
    private final String region;
    private final String table;
    private volatile Settings settings;
    private boolean resumed;
    private final Clock clock;
    private final Listener listener;
    private final List<Pending> pending = new ArrayList<>();
    private final Map<String, String> flushedSequences = new HashMap<>();
    private ShardCursors cursors;
    private Instant from;
    private Instant nextFlush;

    /**
     * @param flushEvery   how often the buffered writes become an export
     * @param settle       how long after a write its record may still be on its way to the stream
     * @param maxBuffered  writes held in memory before a flush is forced and reading pauses; a soft
     *                     bound, passed only while one second holds more writes than it
     * @param linesPerFile writes per data file of an export
     */
    public record Settings(Duration flushEvery, Duration settle, int maxBuffered, int linesPerFile) {
    }

    /** What the capture tells the service. */
    public interface Listener {
        void flushed(ExportMetadata export, long records, Duration lag);

        void gapped(Instant from, Instant to, String reason);
    }

    public StreamCapture(DynamoDbStreamsClient streams, DynamoDbClient dynamo, S3Client s3, VaultLayout layout,
                         String account, String region, String table, Settings settings, Clock clock,
                         Listener listener) {
        this.streams = streams;
        this.dynamo = dynamo;
        this.s3 = s3;
        this.layout = layout;
        this.account = account;
        this.region = region;
        this.table = table;
        this.settings = settings;
        this.clock = clock;
        this.listener = listener;
    }

    /** Where the next export starts: every write before it is in the vault (null before {@link #start()}). */
    public Instant coveredUntil() {
        return from;
    }

    /** Whether {@link #start()} resumed after a checkpoint (false: it started at the stream's head). */
    public boolean resumed() {
        return resumed;
    }

    /** Flushes every {@code interval} from now on, keeping what it holds. */
    public void flushEvery(Duration interval) {
        settings = new Settings(interval, settings.settle(), settings.maxBuffered(), settings.linesPerFile());
        nextFlush = clock.instant().plus(interval);
    }

    public int buffered() {
        return pending.size();
    }

    public int shardsRead() {
        return cursors == null ? 0 : cursors.shardsRead();
    }

    /** Finds the table's stream and resumes after the vault's last checkpoint, or starts at the head. */
    public void start() {
        String arn = dynamo.describeTable(b -> b.tableName(table)).table().latestStreamArn();
        if (arn == null) {
            throw new IllegalStateException("table " + table + " has no stream: enable one with NEW_AND_OLD_IMAGES "
                    + "(aws dynamodb update-table --table-name " + table
                    + " --stream-specification StreamEnabled=true,StreamViewType=NEW_AND_OLD_IMAGES)");
        }
        CaptureCheckpoint checkpoint = lastCheckpoint();
        if (checkpoint == null) {
            startAtHead(arn);
            return;
        }
        if (!checkpoint.streamArn().equals(arn)) {
            startAtHead(arn);
            listener.gapped(checkpoint.to(), from, "the table's stream was replaced (" + checkpoint.streamArn()
                    + " by " + arn + "); writes in between were not captured");
            return;
        }
        try {
            var resumed = new ShardCursors(streams, arn, clock);
            resumed.resume(checkpoint);
            cursors = resumed;
            from = checkpoint.to();
            flushedSequences.putAll(checkpoint.shards());
            nextFlush = clock.instant().plus(settings.flushEvery());
            this.resumed = true;
        } catch (CaptureGap gap) {
            startAtHead(arn);
            listener.gapped(checkpoint.to(), from, gap.getMessage());
        }
    }

    private void startAtHead(String arn) {
        cursors = new ShardCursors(streams, arn, clock);
        cursors.startAtHead();
        pending.clear();
        flushedSequences.clear();
        // every write from the next whole second on is captured
        from = Instant.ofEpochSecond(clock.instant().getEpochSecond() + 1);
        nextFlush = clock.instant().plus(settings.flushEvery());
    }

    /** Reads what the stream has, and flushes when the interval has passed. */
    public void step() {
        try {
            Instant now = clock.instant();
            if (Duration.between(cursors.refreshedAt(), now).toMillis() >= 1_000) {
                cursors.refresh();
            }
            boolean full = pending.size() >= settings.maxBuffered();
            boolean flushed = (full || !now.isBefore(nextFlush)) && flush();
            if (!full || !flushed) {
                // full and nothing to flush: one second holds more writes than the bound, so read on
                cursors.poll(this::accept);
            }
        } catch (CaptureGap gap) {
            Instant before = from;
            startAtHead(cursors.streamArn());
            listener.gapped(before, from, gap.getMessage());
        }
    }

    private void accept(String shardId, Record record) {
        long second = record.dynamodb().approximateCreationDateTime().getEpochSecond();
        if (second < from.getEpochSecond()) {
            return; // before the capture's start: no export covers it
        }
        var d = record.dynamodb();
        pending.add(new Pending(shardId, d.sequenceNumber(), second, d.keys(),
                d.hasOldImage() && !d.oldImage().isEmpty() ? d.oldImage() : null,
                d.hasNewImage() && !d.newImage().isEmpty() ? d.newImage() : null));
    }

    /** Writes [from, to) as one export when {@code to} is past {@code from}; returns whether it did. */
    boolean flush() {
        Instant to = cursors.readUntil(settings.settle().toMillis());
        if (!to.isAfter(from)) {
            return false;
        }
        String exportId = EXPORT_PREFIX + BackupIds.stamp(from);
        var writer = new IncrementalExportWriter(s3, layout, account, region, table, exportId, from, to,
                settings.linesPerFile());
        long written = 0;
        var sequences = new HashMap<>(flushedSequences);
        long second = Long.MIN_VALUE;
        int ordinal = 0;
        try (var part = writer.openPart()) {
            for (Pending p : pending) {
                if (p.second >= to.getEpochSecond()) {
                    continue;
                }
                ordinal = p.second == second ? Math.min(ordinal + 1, 999_999) : 0;
                second = p.second;
                part.write(ExportLine.change(p.keys, p.oldImage, p.newImage, p.second * 1_000_000L + ordinal));
                sequences.put(p.shardId, p.sequence);
                written++;
            }
        }
        var finished = new TreeSet<>(cursors.finished());
        pending.stream().filter(p -> p.second >= to.getEpochSecond()).forEach(p -> finished.remove(p.shardId));
        sequences.keySet().removeIf(finished::contains);
        var checkpoint = new CaptureCheckpoint(cursors.streamArn(), to, sequences, List.copyOf(finished));
        s3.putObject(b -> b.bucket(layout.bucket()).key(layout.exportPrefix(account, region, table, exportId)
                + CaptureCheckpoint.FILE).contentType("application/json"), RequestBody.fromBytes(Json.toBytes(checkpoint)));
        ExportMetadata export = writer.finish();
        long toSecond = to.getEpochSecond();
        pending.removeIf(p -> p.second < toSecond); // what was written: every write before to
        flushedSequences.clear();
        flushedSequences.putAll(sequences);
        from = to;
        nextFlush = clock.instant().plus(settings.flushEvery());
        listener.flushed(export, written, Duration.between(to, clock.instant()));
        return true;
    }

    /** The checkpoint of the table's latest listed stream export, or null when there is none. */
    private CaptureCheckpoint lastCheckpoint() {
        String prefix = layout.exportsPrefix(account, region, table);
        var ids = new ArrayList<String>();
        for (var page : s3.listObjectsV2Paginator(b -> b.bucket(layout.bucket()).prefix(prefix + EXPORT_PREFIX)
                .delimiter("/"))) {
            for (CommonPrefix cp : page.commonPrefixes()) {
                ids.add(cp.prefix());
            }
        }
        ids.sort(null);
        var catalog = new VaultCatalog(s3, layout);
        for (int i = ids.size() - 1; i >= 0; i--) {
            String folder = ids.get(i);
            if (catalog.read(layout.bucket(), folder + VaultLayout.EXPORT_JSON, ExportMetadata.class).isPresent()) {
                var checkpoint = catalog.read(layout.bucket(), folder + CaptureCheckpoint.FILE, CaptureCheckpoint.class);
                if (checkpoint.isPresent()) {
                    return checkpoint.get();
                }
            }
        }
        return null;
    }

    private record Pending(String shardId, String sequence, long second, Map<String, AttributeValue> keys,
                           Map<String, AttributeValue> oldImage, Map<String, AttributeValue> newImage) {
    }
}
