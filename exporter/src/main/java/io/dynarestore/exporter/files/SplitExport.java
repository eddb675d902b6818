package io.dynarestore.exporter.files;

import io.dynarestore.contracts.Json;
import io.dynarestore.contracts.work.ExportDispatched;
import io.dynarestore.core.csv.CsvColumn;
import io.dynarestore.core.filter.RecordFilter;
import io.dynarestore.core.vault.Backup;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * A CSV export split over exporter replicas (ADR 0041): each part reads a range of the backup's
 * data files and stages its rows in the vault, and one merge writes the file from them, byte for
 * byte the file of one pass. Parts are staged as spooled cells ({@code part-<n>.rows}, cells
 * numbered by the part's own columns) or, when the backup lists its attributes (the header is then
 * known before reading), as final CSV records ({@code part-<n>.csv}); each part's columns and counts
 * follow in {@code part-<n>.json}, written last.
 */
public final class SplitExport {

    private final S3Client s3;
    private final int partSize;
    private final CsvExport whole;

    private final boolean copyPartsInS3;

    /** Has S3 copy staged CSV parts into the file where it takes them as parts. */
    public SplitExport(S3Client s3, int partSize) {
        this(s3, partSize, true);
    }

    /** @param copyPartsInS3 whether S3 copies staged CSV parts into the file, or they are streamed through here */
    public SplitExport(S3Client s3, int partSize, boolean copyPartsInS3) {
        this.s3 = s3;
        this.partSize = partSize;
        this.whole = new CsvExport(s3, partSize);
        this.copyPartsInS3 = copyPartsInS3;
    }

    /**
     * One part of a split export (ADR 0041): the matching items of the data files
     * {@code [firstFile, endFile)}, at most {@code cap}, spooled as a whole export spools them and
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
        var header = CsvExport.knownHeader(backup, filter, keyAttributes, cap);
        if (header != null) {
            return knownPart(backup, split, header, bucket);
        }
        try (var spool = RowSpool.create()) {
            long[] found = {0};
            whole.spoolRows(
                    backup,
                    files.subList(split.firstFile(), split.endFile()),
                    filter,
                    keyAttributes,
                    cap,
                    spool,
                    found);
            var upload = S3Upload.whole(
                    s3,
                    bucket,
                    StagedPart.rowsKey(split.staging(), split.part()),
                    "application/octet-stream",
                    partSize,
                    spool::copyTo);
            return staged(
                    bucket, split, new StagedPart(spool.rows(), found[0], upload.bytes(), spool.columns(), false));
        }
    }

    /**
     * The file of a split export from its staged parts: the header is the columns of the rows kept
     * (the union of the parts', ordered as {@link CsvColumns} orders them, so the same as one pass
     * would give), then each part's rows in part order, at most {@code cap} in all.
     */
    public CsvExport.Summary merge(
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
        if (staged.stream().anyMatch(StagedPart::csv)) {
            return concatenate(bucket, key, staging, staged, matching, cap);
        }
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
        var upload = S3Upload.whole(s3, bucket, key, CsvExport.CSV, partSize, out -> {
            var csv = new CsvRowWriter(out);
            csv.write(header.stream().map(CsvColumn::header).toArray(String[]::new));
            long before = 0;
            for (int p = 0; p < parts && before < cap; p++) {
                var part = staged.get(p);
                long take = Math.min(part.rows(), cap - before);
                try (var in = rows(bucket, staging, p)) {
                    RowSpool.replay(in, part.columns(), take, header, csv, before, progress::accept);
                }
                before += take;
            }
            csv.flush();
        });
        return new CsvExport.Summary(bucket, key, kept, upload.bytes(), upload.sha256Hex(), matching > cap, matching);
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

    /**
     * A part under the known header of its backup (every part computes the same): its rows go
     * straight to {@code part-<n>.csv} as final CSV records, and the merge only concatenates. A cell
     * outside the header fails the part: a part cannot fall back alone, as the merge needs every
     * part in one form.
     */
    private StagedPart knownPart(Backup backup, ExportDispatched.Split split, List<CsvColumn> header, String bucket) {
        var files = backup.files().subList(split.firstFile(), split.endFile());
        long[] found = {0}; // without a cap every item found is a row
        S3Upload upload;
        try {
            upload = S3Upload.whole(
                    s3, bucket, StagedPart.csvKey(split.staging(), split.part()), CsvExport.CSV, partSize, out -> {
                        var csv = new CsvRowWriter(out);
                        if (split.part() == 0) {
                            // the file's first bytes: the merge then only puts the parts' objects one after another
                            csv.write(header.stream().map(CsvColumn::header).toArray(String[]::new));
                        }
                        whole.scanCells(
                                backup, files, Long.MAX_VALUE, new KnownColumnRows(header, csv, n -> {}), found);
                        csv.flush();
                    });
        } catch (KnownColumnRows.UnlistedColumn e) {
            throw new IllegalStateException(
                    "backup " + backup.backupId() + " lists its attributes wrongly (" + e.getMessage()
                            + "); its export cannot be split",
                    e);
        }
        return staged(bucket, split, new StagedPart(found[0], found[0], upload.bytes(), header, true));
    }

    /** Writes a part's columns and counts, after its rows: the part is whole once this is there. */
    private StagedPart staged(String bucket, ExportDispatched.Split split, StagedPart part) {
        s3.putObject(
                b -> b.bucket(bucket)
                        .key(StagedPart.key(split.staging(), split.part()))
                        .contentType("application/json"),
                RequestBody.fromBytes(Json.toBytes(part)));
        return part;
    }

    /**
     * The file from parts staged as CSV records under one header (part 0's object begins with it):
     * the parts' objects one after another, copied by S3 where it takes them as parts.
     */
    private CsvExport.Summary concatenate(
            String bucket, String key, String staging, List<StagedPart> staged, long matching, long cap) {
        var header = staged.get(0).columns();
        for (int p = 0; p < staged.size(); p++) {
            if (!staged.get(p).csv() || !staged.get(p).columns().equals(header)) {
                throw new IllegalStateException("part " + p + " of the export was staged under another header than"
                        + " part 0; export the backup again");
            }
        }
        long rows = staged.stream().mapToLong(StagedPart::rows).sum();
        if (rows > cap) {
            throw new IllegalStateException("the parts hold " + rows + " rows, more than the cap of " + cap);
        }
        var sources = new ArrayList<String>();
        for (int p = 0; p < staged.size(); p++) {
            sources.add(StagedPart.csvKey(staging, p));
        }
        if (copyPartsInS3
                && ServerSideConcat.fits(staged.stream().map(StagedPart::bytes).toList())) {
            var made = ServerSideConcat.concat(s3, bucket, key, CsvExport.CSV, sources);
            return new CsvExport.Summary(bucket, key, rows, made.bytes(), made.sha256(), false, matching);
        }
        // a part under S3's 5 MiB minimum, or copies turned off: the bytes go through here
        var upload = S3Upload.whole(s3, bucket, key, CsvExport.CSV, partSize, out -> {
            for (String source : sources) {
                try (var in = s3.getObject(b -> b.bucket(bucket).key(source))) {
                    in.transferTo(out);
                }
            }
        });
        return new CsvExport.Summary(bucket, key, rows, upload.bytes(), upload.sha256Hex(), false, matching);
    }
}
