package io.dynarestore.exporter.files;

import io.dynarestore.contracts.Json;
import io.dynarestore.contracts.work.ExportDispatched;
import io.dynarestore.core.codec.DynamoJson;
import io.dynarestore.core.csv.ConsoleCells;
import io.dynarestore.core.csv.CsvColumn;
import io.dynarestore.core.filter.RecordFilter;
import io.dynarestore.core.vault.Backup;
import io.dynarestore.core.vault.DataFileReader;
import io.dynarestore.core.vault.ExportLine;
import io.dynarestore.core.vault.KeyPrefilter;
import io.dynarestore.core.vault.ManifestFile;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Granular recovery: the items of a backup that match a filter, as one console CSV object in S3.
 * One streaming pass over the backup's data files finds the columns (names and types only) while
 * the rows wait, formatted, on local disk ({@link RowSpool}); then the header and the rows go out
 * through a multipart upload. Memory stays flat whatever the size; local disk holds the rows. At most {@code cap} items are exported; the summary says when the cap cut it short.
 */
public final class CsvExport {

    private static final Logger log = LoggerFactory.getLogger(CsvExport.class);

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
            var upload = new S3Upload(s3, bucket, key, "text/csv; charset=utf-8", partSize);
            var csv = new CsvRowWriter(upload);
            try {
                csv.write(columns.columns().stream().map(CsvColumn::header).toArray(String[]::new));
                spool.replay(columns.columns(), csv, progress::accept);
                csv.flush();
            } catch (RuntimeException e) {
                // never a half file: the object only exists once the upload completes
                upload.abort();
                throw e;
            }
            upload.close(); // completes the upload
            return new Summary(bucket, key, spool.rows(), upload.bytes(), upload.sha256Hex(), capped, found[0]);
        }
    }

    /**
     * The header of a whole-table export, when the backup's metadata lists every attribute's types
     * and the cap keeps every item (otherwise the header is that of the rows kept): then the rows
     * need not wait in a spool. {@code null} when it is not known before reading.
     */
    private static List<CsvColumn> knownHeader(
            Backup backup, RecordFilter filter, List<String> keyAttributes, long cap) {
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
        var upload = new S3Upload(s3, bucket, key, "text/csv; charset=utf-8", partSize);
        var csv = new CsvRowWriter(upload);
        var rows = new KnownColumnRows(header, csv, progress::accept);
        long[] found = {0};
        try {
            csv.write(header.stream().map(CsvColumn::header).toArray(String[]::new));
            if (!scanCells(backup, backup.files(), Long.MAX_VALUE, rows, found)) {
                throw new IllegalStateException("unreachable: no cap");
            }
            csv.flush();
        } catch (RuntimeException e) {
            upload.abort(); // never a half file
            throw e;
        }
        upload.close();
        return new Summary(bucket, key, rows.rows(), upload.bytes(), upload.sha256Hex(), false, found[0]);
    }

    /**
     * One part of a split export (ADR 0041): the matching items of the data files
     * {@code [firstFile, endFile)}, at most {@code cap}, spooled as {@link #export} spools them and
     * then staged in {@code bucket} for the merge: the spool as {@code part-<n>.rows}, then (last,
     * so that a part is whole once it is there) its columns and counts as {@code part-<n>.json}.
     */
    public StagedPart exportPart(
            Backup backup,
            ExportDispatched.Split split,
            RecordFilter filter,
            List<String> keyAttributes,
            long cap,
            String bucket) {
        var files = backup.files();
        if (split.firstFile() < 0 || split.firstFile() > split.endFile() || split.endFile() > files.size()) {
            throw new IllegalArgumentException("part " + split.part() + " names data files [" + split.firstFile() + ", "
                    + split.endFile() + ") but backup " + backup.backupId() + " has " + files.size());
        }
        try (var spool = RowSpool.create()) {
            long[] found = {0};
            spoolRows(
                    backup,
                    files.subList(split.firstFile(), split.endFile()),
                    filter,
                    keyAttributes,
                    cap,
                    spool,
                    found);
            var upload = new S3Upload(
                    s3,
                    bucket,
                    StagedPart.rowsKey(split.staging(), split.part()),
                    "application/octet-stream",
                    partSize);
            try {
                spool.copyTo(upload);
            } catch (RuntimeException e) {
                upload.abort();
                throw e;
            }
            upload.close();
            var part = new StagedPart(spool.rows(), found[0], upload.bytes(), spool.columns());
            s3.putObject(
                    b -> b.bucket(bucket)
                            .key(StagedPart.key(split.staging(), split.part()))
                            .contentType("application/json"),
                    RequestBody.fromBytes(Json.toBytes(part)));
            return part;
        }
    }

    /**
     * The file of a split export from its staged parts: the header is the columns of the rows kept
     * (the union of the parts', ordered as {@link CsvColumns} orders them, so the same as one pass
     * would give), then each part's rows in part order, at most {@code cap} in all.
     */
    public Summary merge(
            String bucket,
            String key,
            String staging,
            int parts,
            List<String> keyAttributes,
            long cap,
            Consumer<Long> progress) {
        var staged = new ArrayList<StagedPart>();
        for (int p = 0; p < parts; p++) {
            staged.add(readPart(bucket, staging, p));
        }
        long matching = staged.stream().mapToLong(StagedPart::matching).sum();
        var columns = new CsvColumns(keyAttributes);
        long kept = 0;
        for (int p = 0; p < parts && kept < cap; p++) {
            var part = staged.get(p);
            long take = Math.min(part.rows(), cap - kept);
            // a part cut by the cap gives only the columns of the rows kept, as one pass would
            (take == part.rows() ? part.columns() : columnsOf(bucket, staging, p, part, take))
                    .forEach(columns::observe);
            kept += take;
        }
        var header = columns.columns();
        var upload = new S3Upload(s3, bucket, key, "text/csv; charset=utf-8", partSize);
        var csv = new CsvRowWriter(upload);
        long written = 0;
        try {
            csv.write(header.stream().map(CsvColumn::header).toArray(String[]::new));
            for (int p = 0; p < parts && written < cap; p++) {
                var part = staged.get(p);
                long take = Math.min(part.rows(), cap - written);
                try (var in = rows(bucket, staging, p)) {
                    RowSpool.replay(in, part.columns(), take, header, csv, written, progress::accept);
                }
                written += take;
            }
            csv.flush();
        } catch (IOException e) {
            upload.abort();
            throw new UncheckedIOException("a staged part of the export could not be read", e);
        } catch (RuntimeException e) {
            upload.abort();
            throw e;
        }
        upload.close();
        return new Summary(bucket, key, written, upload.bytes(), upload.sha256Hex(), matching > cap, matching);
    }

    /**
     * Whether a merge already wrote {@code key} and its parts are gone (the planner removes a
     * restore's staging when it ends): a merge delivered again after its file completed the restore.
     */
    public boolean mergedBefore(String bucket, String key, String staging) {
        return !exists(bucket, StagedPart.key(staging, 0)) && exists(bucket, key);
    }

    private boolean exists(String bucket, String key) {
        try {
            s3.headObject(b -> b.bucket(bucket).key(key));
            return true;
        } catch (NoSuchKeyException e) {
            return false;
        } catch (S3Exception e) {
            if (e.statusCode() == 404) {
                return false;
            }
            throw e;
        }
    }

    private StagedPart readPart(String bucket, String staging, int p) {
        try {
            var bytes = s3.getObjectAsBytes(b -> b.bucket(bucket).key(StagedPart.key(staging, p)));
            return Json.mapper().readValue(bytes.asByteArray(), StagedPart.class);
        } catch (NoSuchKeyException e) {
            throw new IllegalStateException(
                    "part " + p + " of the export is not staged under s3://" + bucket + "/" + staging
                            + "; export the backup again",
                    e);
        }
    }

    private InputStream rows(String bucket, String staging, int p) {
        return s3.getObject(b -> b.bucket(bucket).key(StagedPart.rowsKey(staging, p)));
    }

    private List<CsvColumn> columnsOf(String bucket, String staging, int p, StagedPart part, long take) {
        try (var in = rows(bucket, staging, p)) {
            return RowSpool.columnsOf(in, part.columns(), take);
        } catch (IOException e) {
            throw new UncheckedIOException("a staged part of the export could not be read", e);
        }
    }

    /** Spools the matching items of {@code files}, at most {@code cap}; false when there were more. */
    private boolean spoolRows(
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
    private boolean scanCells(Backup backup, List<ManifestFile> files, long cap, RowSink spool, long[] found) {
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
