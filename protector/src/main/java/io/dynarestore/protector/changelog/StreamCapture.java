package io.dynarestore.protector.changelog;

import io.dynarestore.core.aws.StreamRecordBodies;
import io.dynarestore.core.vault.ExportMetadata;
import io.dynarestore.core.vault.ExportMetadata.ShardGroup;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
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
 * <p>Flushes. Every interval, or at once when {@code maxBuffered} writes wait; a capture working off
 * a backlog (its last flush was forced by a full buffer) also flushes as soon as it has caught up,
 * since what it holds is older than the interval already; and at every step while a restore waits
 * for the log's tail ({@link #flushThrough}).
 *
 * <p>Write times. Streams give each record's time to the second; the vault wants microseconds.
 * The records of one second get {@code second + n} microseconds in the order read, which is each
 * key's write order: a restore to a second sees the same state, and of two writes in one second
 * the later one wins.
 *
 * <p>Threads. One thread calls {@link #step()}; a flush is written on the {@code writers}
 * executor while that thread reads on, so that reading never waits for gzip and S3 (at most one
 * flush in flight: the capture holds at most twice {@code maxBuffered} writes). What a flush
 * changes (where the next export starts, the listener's call) happens on the stepping thread, at the
 * first step after it is written; a flush that failed fails that step, and the caller starts over
 * from the vault's checkpoint.
 */
public final class StreamCapture {

    public static final String EXPORT_PREFIX = "stream-";

    /** Where a capture's exports are named: {@code stream-<time>}, or {@code stream-g<i>of<n>-<time>} for a group. */
    static String exportPrefix(ShardGroup group) {
        return group == null ? EXPORT_PREFIX : EXPORT_PREFIX + "g" + group.index() + "of" + group.of() + "-";
    }

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
    private final Executor writers;
    private List<CapturedWrite> pending = new ArrayList<>();
    /** The flush being written, at most one: the capture is stepped by one thread at a time. */
    private CompletableFuture<ChangeLogFlush.Written> inFlight;
    /** Writes in the flush in flight (0 when none), for {@link #buffered()}. */
    private int flushingCount;

    private final Map<String, String> flushedSequences = new HashMap<>();
    private ShardCursors cursors;
    private volatile Instant from;
    private Instant nextFlush;
    /**
     * The last flush was forced by a full buffer: the capture is working off a backlog, and flushes
     * what it holds once it has caught up instead of waiting out the interval (those writes are old).
     */
    private boolean behind;
    /** The last read found every shard at its head (or ended): nothing more to read right away. */
    private boolean caughtUp;
    /** Flush at every step until the log reaches this time (a restore asked for the tail), or null. */
    private Instant flushTarget;
    /** The shards read: one group's, or (null) all. */
    private final ShardGroups groups;

    /**
     * @param flushEvery   how often the buffered writes become an export
     * @param settle       how long after a write its record may still be on its way to the stream
     * @param maxBuffered  writes held in memory before a flush is forced and reading pauses; a soft
     *                     bound, passed only while one second holds more writes than it
     * @param linesPerFile writes per data file of an export
     */
    public record Settings(Duration flushEvery, Duration settle, int maxBuffered, int linesPerFile) {}

    /** What the capture tells the service. */
    public interface Listener {
        void flushed(ExportMetadata export, long records, Duration lag);

        void gapped(Instant from, Instant to, String reason);
    }

    /**
     * A capture of one shard group of the table's stream ({@code group} null: of every shard), into its
     * own chain of exports (ADR 0025).
     */
    public StreamCapture(
            DynamoDbStreamsClient streams,
            DynamoDbClient dynamo,
            S3Client s3,
            VaultLayout layout,
            String account,
            String region,
            String table,
            ShardGroup group,
            Settings settings,
            Clock clock,
            Executor writers,
            Listener listener) {
        this.groups =
                group == null || group.of() == 1 ? null : new ShardGroups(s3, layout, account, region, table, group);
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
        this.writers = writers;
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

    /**
     * Flushes at every step, without waiting for the interval, until the vault's log reaches
     * {@code target}: a restore accepted at {@code target} wants every write made before it (the
     * log's tail) in the vault. Called on the stepping thread.
     */
    public void flushThrough(Instant target) {
        if (flushTarget == null || target.isAfter(flushTarget)) {
            flushTarget = target;
        }
    }

    /** Writes read and not yet in the vault, including a flush being written. */
    public int buffered() {
        return pending.size() + flushingCount;
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
            listener.gapped(
                    checkpoint.to(),
                    from,
                    "the table's stream was replaced (" + checkpoint.streamArn() + " by " + arn
                            + "); writes in between were not captured");
            return;
        }
        try {
            var resumed = new ShardCursors(streams, arn, clock, groups);
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
        awaitFlush();
        cursors = new ShardCursors(streams, arn, clock, groups);
        cursors.startAtHead();
        pending.clear();
        flushedSequences.clear();
        // every write from the next whole second on is captured
        from = Instant.ofEpochSecond(clock.instant().getEpochSecond() + 1);
        nextFlush = clock.instant().plus(settings.flushEvery());
        if (groups != null) {
            groups.started(arn, from);
        }
    }

    /** The stream read (null before {@link #start()}). */
    public String streamArn() {
        return cursors == null ? null : cursors.streamArn();
    }

    /**
     * Reads what the stream has, and starts a flush when the interval has passed (or the buffer is
     * full). Throws what a flush written since the last step failed with.
     *
     * @return whether the stream holds more to read right away (a shard's page came back full): the
     *         caller steps again without a pause while it catches up
     */
    public boolean step() {
        try {
            if (inFlight != null
                    && (inFlight.isDone() || pending.size() >= settings.maxBuffered() || (behind && caughtUp))) {
                // waits when full (reading on would pass the memory bound) or caught up after a backlog
                // (what is left is flushed next, at once)
                completeFlush();
            }
            Instant now = clock.instant();
            if (cursors.endedSinceListing()
                    || Duration.between(cursors.refreshedAt(), now).toMillis() >= 1_000) {
                cursors.refresh(); // at once after a shard ended: its children hold the writes that follow
            }
            boolean full = pending.size() >= settings.maxBuffered();
            if (behind && caughtUp && inFlight == null && pending.isEmpty()) {
                behind = false; // the backlog is all in the vault: nothing to flush early
            }
            if (flushTarget != null && !from.isBefore(flushTarget)) {
                flushTarget = null; // the tail a restore asked for is in the vault
            }
            if (inFlight == null && (full || !now.isBefore(nextFlush) || (behind && caughtUp) || flushTarget != null)) {
                startFlush(full);
            }
            if (pending.size() >= settings.maxBuffered() && inFlight != null) {
                return true; // one second held more than the bound: read on once its flush is written
            }
            // below the bound, or full with nothing to flush (one second holds more writes than the bound): read on
            boolean more = cursors.poll(this::accept);
            caughtUp = !more;
            return more;
        } catch (CaptureGap gap) {
            awaitFlush(); // what was read before the gap is in the vault: the gap starts after it
            Instant before = from;
            startAtHead(cursors.streamArn());
            listener.gapped(before, from, gap.getMessage());
            return true;
        }
    }

    private void accept(String shardId, StreamRecordBodies.Body record) {
        if (record.second() < from.getEpochSecond()) {
            return; // before the capture's start: no export covers it
        }
        pending.add(new CapturedWrite(
                shardId, record.sequenceNumber(), record.second(), record.members(), record.sizeBytes()));
    }

    /** Waits for the flush in flight, if any, and applies it; what it failed with is thrown. */
    public void awaitFlush() {
        if (inFlight != null) {
            completeFlush();
        }
    }

    /**
     * Stops capturing: waits for the flush in flight to be written (so that no write to the vault
     * outlives the capture and races its next owner), and drops what is buffered, as a crash would.
     */
    public void stop() {
        try {
            awaitFlush();
        } catch (RuntimeException e) {
            // the flush is not in the vault: the next owner resumes before it
        } finally {
            pending = new ArrayList<>();
        }
    }

    /**
     * Hands the writes of [from, to) to a writer when {@code to} is past {@code from}. The writes of
     * later seconds stay buffered, and so do their shards' positions.
     */
    private void startFlush(boolean full) {
        Instant to = cursors.readUntil(settings.settle().toMillis());
        if (!to.isAfter(from)) {
            return;
        }
        behind = full && !caughtUp; // a full buffer at the head takes all there is: no backlog left
        long toSecond = to.getEpochSecond();
        var batch = new ArrayList<CapturedWrite>(pending.size());
        var kept = new ArrayList<CapturedWrite>();
        for (CapturedWrite w : pending) {
            (w.second() < toSecond ? batch : kept).add(w);
        }
        var finished = new TreeSet<>(cursors.finished());
        kept.forEach(w -> finished.remove(w.shardId()));
        var flush = new ChangeLogFlush(
                s3,
                layout,
                account,
                region,
                table,
                cursors.streamArn(),
                from,
                to,
                batch,
                Map.copyOf(flushedSequences),
                List.copyOf(finished),
                settings.linesPerFile(),
                groups == null ? null : groups.group(),
                cursors.keyAttributes());
        pending = kept;
        flushingCount = batch.size();
        // every interval from this start: a flush slower than the interval is followed by the next at once
        nextFlush = clock.instant().plus(settings.flushEvery());
        inFlight = CompletableFuture.supplyAsync(flush::write, writers);
    }

    private void completeFlush() {
        var flushing = inFlight;
        inFlight = null;
        ChangeLogFlush.Written written;
        try {
            written = flushing.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        } finally {
            flushingCount = 0;
        }
        flushedSequences.clear();
        flushedSequences.putAll(written.sequences());
        from = written.export().to();
        listener.flushed(written.export(), written.records(), Duration.between(from, clock.instant()));
    }

    /** The checkpoint of the latest listed export of this capture's chain, or null when there is none. */
    private CaptureCheckpoint lastCheckpoint() {
        String prefix = layout.exportsPrefix(account, region, table);
        var ids = new ArrayList<String>();
        String chain = prefix + exportPrefix(groups == null ? null : groups.group());
        for (var page : s3.listObjectsV2Paginator(
                b -> b.bucket(layout.bucket()).prefix(chain).delimiter("/"))) {
            for (CommonPrefix cp : page.commonPrefixes()) {
                // the whole table's chain is stream-<time>: a group's folders (stream-g...) are not in it
                if (Character.isDigit(cp.prefix().charAt(chain.length()))) {
                    ids.add(cp.prefix());
                }
            }
        }
        ids.sort(null);
        var catalog = new VaultCatalog(s3, layout);
        for (int i = ids.size() - 1; i >= 0; i--) {
            String folder = ids.get(i);
            if (catalog.read(layout.bucket(), folder + VaultLayout.EXPORT_JSON, ExportMetadata.class)
                    .isPresent()) {
                var checkpoint =
                        catalog.read(layout.bucket(), folder + CaptureCheckpoint.FILE, CaptureCheckpoint.class);
                if (checkpoint.isPresent()) {
                    return checkpoint.get();
                }
            }
        }
        return null;
    }
}
