package io.dynarestore.core.vault;

import io.dynarestore.contracts.Json;
import io.dynarestore.core.codec.DynamoJson;
import io.dynarestore.core.codec.ItemSize;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.s3.S3Client;
import tools.jackson.core.JsonParser;

/**
 * Writes an incremental export in DynamoDB's INCREMENTAL_EXPORT layout (output view
 * NEW_AND_OLD_IMAGES) covering the writes made in [{@code from}, {@code to}), as AWS defines
 * the range. Unlike a native export, it keeps every write, not only each key's last: the vault can
 * restore to any instant inside it. {@code export.json} is written last.
 */
public final class IncrementalExportWriter {

    /**
     * Key slices per data file of a change log (ADR 0045): planner replicas that share a delta each
     * read only theirs. 16 keeps a slice of a 10,000-line file near 600 lines (gzip loses little to
     * restarting) and costs a part at most one slice more than its share where the parts do not divide 16.
     */
    public static final int KEY_SLICES = 16;

    private final VaultLayout layout;
    private final String account;
    private final String region;
    private final String table;
    private final String exportId;
    private final Instant from;
    private final Instant to;
    private final String prefix;
    private final DataFiles data;
    private final AtomicLong lines = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();
    private final Instant startedAt = Instant.now();
    private final boolean compacted;
    private ExportMetadata.ShardGroup shardGroup;
    private KeySlicer slicer;

    public IncrementalExportWriter(
            S3Client s3,
            VaultLayout layout,
            String account,
            String region,
            String table,
            String exportId,
            Instant from,
            Instant to,
            int linesPerFile) {
        this(s3, layout, account, region, table, exportId, from, to, linesPerFile, false);
    }

    /**
     * @param compacted whether the caller writes only each key's last write of the period, as
     *                  native exports do (then the export is exact only at {@code to})
     */
    public IncrementalExportWriter(
            S3Client s3,
            VaultLayout layout,
            String account,
            String region,
            String table,
            String exportId,
            Instant from,
            Instant to,
            int linesPerFile,
            boolean compacted) {
        if (!from.isBefore(to)) {
            throw new IllegalArgumentException("an export must end after it starts: " + from + " .. " + to);
        }
        this.layout = layout;
        this.account = account;
        this.region = region;
        this.table = table;
        this.exportId = exportId;
        this.from = from;
        this.to = to;
        this.prefix = layout.exportPrefix(account, region, table, exportId);
        this.data = new DataFiles(s3, layout.bucket(), prefix, linesPerFile);
        this.compacted = compacted;
    }

    public Part openPart() {
        return new Part(data.openPart());
    }

    /** The export holds the writes of one shard group's keys only (ADR 0025); before {@link #finish()}. */
    public IncrementalExportWriter shardGroup(ExportMetadata.ShardGroup group) {
        this.shardGroup = group;
        return this;
    }

    /** The gzip level of its data files (see {@link DataFiles#compressionLevel(int)}); before the first part. */
    public IncrementalExportWriter compressionLevel(int level) {
        data.compressionLevel(level);
        return this;
    }

    /**
     * Writes each data file as one gzip member per key slice (ADR 0045), so that a reader of one
     * slice of the key space reads only its bytes; before the first part.
     */
    public IncrementalExportWriter keySlices(KeySlicer slicer) {
        data.keySlices(slicer.count());
        this.slicer = slicer.count() > 1 ? slicer : null; // one slice is the whole file, as unsliced
        return this;
    }

    public ExportMetadata finish() {
        String manifestFilesKey = data.writeManifest();
        String tableArn = "arn:aws:dynamodb:" + region + ":" + account + ":table/" + table;
        var summary = new ManifestSummary(
                "2023-08-01",
                tableArn + "/export/" + exportId,
                startedAt.toString(),
                Instant.now().toString(),
                tableArn,
                null,
                null,
                from.toString(),
                to.toString(),
                layout.bucket(),
                prefix,
                "AES256",
                null,
                manifestFilesKey,
                bytes.get(),
                lines.get(),
                ManifestSummary.DYNAMODB_JSON,
                "NEW_AND_OLD_IMAGES",
                ManifestSummary.INCREMENTAL_EXPORT);
        data.put(prefix + VaultLayout.MANIFEST_SUMMARY, Json.toBytes(summary), "application/json");
        var metadata = new ExportMetadata(
                ExportMetadata.FORMAT_VERSION,
                exportId,
                account,
                region,
                table,
                from,
                to,
                compacted,
                lines.get(),
                null,
                shardGroup);
        data.put(prefix + VaultLayout.EXPORT_JSON, Json.toBytes(metadata), "application/json");
        return metadata;
    }

    /** Writes changes for one thread; not thread-safe. */
    private static final byte[] CLOSE = {'}'};

    private static final String METADATA = "{\"Metadata\":{\"WriteTimestampMicros\":{\"N\":\"";

    public final class Part implements AutoCloseable {
        private final DataFiles.Part out;
        /** Finds a raw change's key where the files are sliced. */
        private final LineKeys keys;

        private Part(DataFiles.Part out) {
            this.out = out;
            this.keys = slicer == null ? null : new LineKeys("Keys", slicer.keyAttributes());
        }

        /** Writes a change made in [from, to). */
        public void write(ExportLine change) {
            write(change, change.image() == null ? 0 : ItemSize.of(change.image()));
        }

        /** Writes a change made in [from, to) whose image's size is known (a stream record's SizeBytes). */
        public void write(ExportLine change, long imageBytes) {
            long micros = change.writeTimestampMicros();
            Instant at = Instant.ofEpochSecond(micros / 1_000_000, (micros % 1_000_000) * 1_000);
            if (at.isBefore(from) || !at.isBefore(to)) {
                throw new IllegalArgumentException(
                        "a change at " + at + " is outside the export's [" + from + ", " + to + ")");
            }
            if (slicer == null) {
                out.write(change::write);
            } else {
                out.write(slicer.sliceOf(change.keys()), change::write);
            }
            lines.incrementAndGet();
            bytes.addAndGet(imageBytes);
        }

        /**
         * Writes a change made in [from, to) at {@code micros}, whose keys and images {@link ChangeBodies}
         * encoded when it was read; {@code imageBytes} is its size as the stream gave it.
         */
        public void writeChange(long micros, byte[] body, long imageBytes) {
            Instant at = Instant.ofEpochSecond(micros / 1_000_000, (micros % 1_000_000) * 1_000);
            if (at.isBefore(from) || !at.isBefore(to)) {
                throw new IllegalArgumentException(
                        "a change at " + at + " is outside the export's [" + from + ", " + to + ")");
            }
            if (slicer == null) {
                out.writeRaw(metadata(micros), body, CLOSE);
            } else {
                out.writeRaw(slicer.sliceOf(keysOf(body)), metadata(micros), body, CLOSE);
            }
            lines.incrementAndGet();
            bytes.addAndGet(imageBytes);
        }

        /** The {@code Keys} of a change's body: found by a byte scan, or parsed where the scan cannot tell. */
        private Map<String, AttributeValue> keysOf(byte[] body) {
            Map<String, AttributeValue> found = keys.inMembers(body, 0, body.length);
            if (found != null) {
                return found;
            }
            byte[] line = new byte[body.length + 2];
            line[0] = '{';
            System.arraycopy(body, 0, line, 1, body.length);
            line[line.length - 1] = '}';
            try (JsonParser p = DynamoJson.parser(line, 0, line.length)) {
                p.nextToken();
                for (String name; (name = p.nextName()) != null; ) {
                    p.nextToken();
                    if (name.equals("Keys")) {
                        return DynamoJson.readItem(p);
                    }
                    p.skipChildren();
                }
            }
            throw new IllegalArgumentException("a change has no Keys: " + new String(body, StandardCharsets.UTF_8));
        }

        /** The second whose digits {@link #secondPrefix} holds (Long.MIN_VALUE: none yet). */
        private long prefixSecond = Long.MIN_VALUE;

        private byte[] secondPrefix;

        /**
         * {@code {"Metadata":{"WriteTimestampMicros":{"N":"<micros>"}},}} as bytes. The lines of a change
         * log come a second at a time, so the second's digits are encoded once and each line adds its
         * six digits of microseconds.
         */
        private byte[] metadata(long micros) {
            long second = micros / 1_000_000;
            if (second <= 0) { // no leading zeros to pad: as written
                return (METADATA + micros + "\"}},").getBytes(StandardCharsets.US_ASCII);
            }
            if (second != prefixSecond) {
                secondPrefix = (METADATA + second).getBytes(StandardCharsets.US_ASCII);
                prefixSecond = second;
            }
            byte[] line = Arrays.copyOf(secondPrefix, secondPrefix.length + 10);
            int at = secondPrefix.length;
            int rest = (int) (micros % 1_000_000);
            for (int i = at + 5; i >= at; i--) {
                line[i] = (byte) ('0' + rest % 10);
                rest /= 10;
            }
            line[at + 6] = '"';
            line[at + 7] = '}';
            line[at + 8] = '}';
            line[at + 9] = ',';
            return line;
        }

        @Override
        public void close() {
            out.close();
        }
    }
}
