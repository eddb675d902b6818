package io.dynarestore.exporter.files;

import io.dynarestore.core.codec.DynamoJson;
import io.dynarestore.core.csv.ConsoleCells;
import io.dynarestore.core.csv.CsvColumn;
import io.dynarestore.core.filter.RecordFilter;
import io.dynarestore.core.vault.Backup;
import io.dynarestore.core.vault.DataFileReader;
import io.dynarestore.core.vault.ExportLine;
import io.dynarestore.core.vault.KeyPrefilter;
import io.dynarestore.core.vault.ManifestFile;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Granular recovery: the items of a backup that match a filter, as one console CSV object in S3.
 * One streaming pass over the backup's data files finds the columns (names and types only) while
 * the rows wait, formatted, on local disk ({@link RowSpool}); then the header and the rows go out
 * through a multipart upload. Memory stays flat whatever the size; local disk holds the rows. At most {@code cap} items are exported; the summary says when the cap cut it short.
 */
public final class CsvExport {

    private static final Logger log = LoggerFactory.getLogger(CsvExport.class);

    /** The content type of an export's file. */
    static final String CSV = "text/csv; charset=utf-8";

    /** What was exported: items, the object's size and SHA-256, and whether the cap stopped it. */
    public record Summary(
            String bucket, String key, long items, long bytes, String sha256, boolean capped, long matching) {}

    private final S3Client s3;
    private final int partSize;

    public CsvExport(S3Client s3, int partSize) {
        this.s3 = s3;
        this.partSize = partSize;
    }

    /**
     * @param filter   the records to export, or {@code null} for all
     * @param cap      the most items to export
     * @param progress told the items written so far, now and then
     */
    public Summary export(
            Backup backup,
            RecordFilter filter,
            List<String> keyAttributes,
            long cap,
            String bucket,
            String key,
            Consumer<Long> progress) {
        var known = knownHeader(backup, filter, keyAttributes, cap);
        if (known != null) {
            try {
                return exportKnown(backup, known, bucket, key, progress);
            } catch (KnownColumnRows.UnlistedColumn e) {
                log.warn("backup {}: {}; exporting through the spool instead", backup.backupId(), e.getMessage());
            }
        }
        try (var spool = RowSpool.create()) {
            // one pass over the backup: the rows wait on local disk until every column is known
            long[] found = {0};
            boolean capped = !spoolRows(backup, backup.files(), filter, keyAttributes, cap, spool, found);
            var columns = new CsvColumns(keyAttributes);
            spool.columns().forEach(columns::observe);
            // never a half file: the object only exists once the upload completes
            var upload = S3Upload.whole(s3, bucket, key, CSV, partSize, out -> {
                var csv = new CsvRowWriter(out);
                csv.write(columns.columns().stream().map(CsvColumn::header).toArray(String[]::new));
                spool.replay(columns.columns(), csv, progress::accept);
                csv.flush();
            });
            return new Summary(bucket, key, spool.rows(), upload.bytes(), upload.sha256Hex(), capped, found[0]);
        }
    }

    /**
     * The header of a whole-table export, when the backup's metadata lists every attribute's types
     * and the cap keeps every item (otherwise the header is that of the rows kept): then the rows
     * need not wait in a spool. {@code null} when it is not known before reading.
     */
    static List<CsvColumn> knownHeader(Backup backup, RecordFilter filter, List<String> keyAttributes, long cap) {
        var types = backup.metadata().attributeTypes();
        if (filter != null || types == null || backup.itemCount() > cap) {
            return null;
        }
        var columns = new CsvColumns(keyAttributes);
        types.forEach((name, t) -> t.forEach(type -> columns.observe(new CsvColumn(name, type))));
        return columns.columns();
    }

    /** Every item, straight to the file under its known header: one pass, no spool. */
    private Summary exportKnown(
            Backup backup, List<CsvColumn> header, String bucket, String key, Consumer<Long> progress) {
        long[] found = {0}; // without a cap every item found is a row
        var upload = S3Upload.whole(s3, bucket, key, CSV, partSize, out -> {
            var csv = new CsvRowWriter(out);
            csv.write(header.stream().map(CsvColumn::header).toArray(String[]::new));
            scanCells(
                    backup, backup.files(), Long.MAX_VALUE, new KnownColumnRows(header, csv, progress::accept), found);
            csv.flush();
        });
        return new Summary(bucket, key, found[0], upload.bytes(), upload.sha256Hex(), false, found[0]);
    }

    /** Spools the matching items of {@code files}, at most {@code cap}; false when there were more. */
    boolean spoolRows(
            Backup backup,
            List<ManifestFile> files,
            RecordFilter filter,
            List<String> keyAttributes,
            long cap,
            RowSpool spool,
            long[] found) {
        if (filter == null) {
            return scanCells(backup, files, cap, spool, found);
        }
        var prefilter = KeyPrefilter.ofItems(keyAttributes, filter::keyMayMatch);
        return scan(backup, files, filter, prefilter, cap + 1, item -> {
            if (found[0]++ < cap) {
                spool.add(item);
            }
        });
    }

    /**
     * Every item of the backup, up to {@code cap}, into the spool; false when there were more. JSON
     * data files go cell by cell from their tokens ({@link ConsoleCells}: no item is built); ION files
     * item by item. {@code found} counts the items, and one more when the cap stopped it.
     */
    boolean scanCells(Backup backup, List<ManifestFile> files, long cap, RowSink spool, long[] found) {
        boolean[] over = {false};
        var cells = new ConsoleCells();
        DataFileReader.LineReader line = p -> {
            String part;
            while ((part = p.nextName()) != null) {
                p.nextToken();
                if (!"Item".equals(part)) {
                    DynamoJson.readItem(p); // checked as the full parse checks it, and not exported
                } else if (found[0] < cap) {
                    cells.read(p, spool);
                    spool.endRow();
                    found[0]++;
                } else {
                    p.skipChildren();
                    found[0]++;
                    over[0] = true;
                }
            }
        };
        for (ManifestFile f : files) {
            var object = s3.getObject(b -> b.bucket(backup.dataBucket()).key(f.dataFileS3Key()));
            try (var reader = new DataFileReader(f.dataFileS3Key(), object, f.md5Checksum())) {
                if (!reader.readsRaw()) {
                    for (ExportLine l; !over[0] && (l = reader.next()) != null; ) {
                        if (l.item() != null && found[0]++ < cap) {
                            spool.add(l.item());
                        } else if (l.item() != null) {
                            over[0] = true;
                        }
                    }
                }
                while (!over[0] && reader.readsRaw() && reader.nextRaw(line)) {
                    // the line went to the spool
                }
            }
            if (over[0]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Feeds matching items to {@code sink}, at most {@code limit}; false when it stopped at the limit.
     * Lines whose key {@code prefilter} rejects are passed over unparsed.
     */
    private boolean scan(
            Backup backup,
            List<ManifestFile> files,
            RecordFilter filter,
            KeyPrefilter prefilter,
            long limit,
            Consumer<Map<String, AttributeValue>> sink) {
        long n = 0;
        for (ManifestFile f : files) {
            var object = s3.getObject(b -> b.bucket(backup.dataBucket()).key(f.dataFileS3Key()));
            try (var reader = DataFileReader.selective(f.dataFileS3Key(), object, f.md5Checksum(), prefilter)) {
                for (ExportLine line; (line = reader.next()) != null; ) {
                    var item = line.item();
                    if (item != null && (filter == null || filter.matches(item))) {
                        if (n++ >= limit) {
                            return false;
                        }
                        sink.accept(item);
                    }
                }
            }
        }
        return true;
    }
}
