package io.dynarestore.planner.staging;

import io.dynarestore.core.pitr.KeyRange;
import io.dynarestore.core.vault.CorruptDataFileException;
import io.dynarestore.core.vault.DataFileReader;
import io.dynarestore.core.vault.ExportLine;
import io.dynarestore.core.vault.ExportMetadata;
import io.dynarestore.core.vault.KeyPrefilter;
import io.dynarestore.core.vault.ManifestFile;
import io.dynarestore.core.vault.VaultCatalog;
import java.util.List;
import java.util.function.Consumer;
import software.amazon.awssdk.services.s3.S3Client;

/** Streams every change line of a list of incremental exports, export by export, from wherever each lies. */
record ChangeLogReader(S3Client s3, VaultCatalog catalog) {

    /** Hands {@code each} every line, in the exports' order and each file's; returns how many it read. */
    long forEach(List<ExportMetadata> exports, Consumer<ExportLine> each) {
        return forEach(exports, null, each);
    }

    /**
     * Hands {@code each} the lines whose key {@code prefilter} may want (every line where it is
     * {@code null}), passing the others over unparsed; returns how many lines it read, passed over or not.
     */
    long forEach(List<ExportMetadata> exports, KeyPrefilter prefilter, Consumer<ExportLine> each) {
        return forEach(exports, prefilter, KeyRange.ALL, each);
    }

    /**
     * {@link #forEach(List, KeyPrefilter, Consumer)} for the keys of {@code range}, which the caller
     * still checks: of a file cut in key slices (ADR 0045) only the slices that share hashes with the
     * range are read, and their lines are checked against the manifest's count. Returns how many lines
     * the exports hold, read or not, as a reader of every slice would count them.
     */
    long forEach(List<ExportMetadata> exports, KeyPrefilter prefilter, KeyRange range, Consumer<ExportLine> each) {
        long read = 0;
        for (ExportMetadata export : exports) {
            String bucket = catalog.exportBucket(export);
            for (ManifestFile f : catalog.exportFiles(export)) {
                if (range.parts() > 1 && f.keySlices() != null && !f.keySlices().isEmpty()) {
                    read += readSlices(bucket, f, prefilter, range, each);
                    continue;
                }
                var object = s3.getObject(b -> b.bucket(bucket).key(f.dataFileS3Key()));
                try (var reader = DataFileReader.selective(f.dataFileS3Key(), object, f.md5Checksum(), prefilter)) {
                    for (ExportLine line; (line = reader.next()) != null; ) {
                        each.accept(line);
                    }
                    read += reader.lines();
                }
            }
        }
        return read;
    }

    /** Reads the slices of {@code f} that {@code range} needs, with one ranged GET; returns the file's lines. */
    private long readSlices(
            String bucket, ManifestFile f, KeyPrefilter prefilter, KeyRange range, Consumer<ExportLine> each) {
        int[] slices = range.sliceSpan(f.keySlices().size());
        var span = f.span(slices[0], slices[1]);
        if (span.items() > 0) {
            String name = f.dataFileS3Key() + " (key slices " + slices[0] + " to " + slices[1] + ")";
            var object =
                    s3.getObject(b -> b.bucket(bucket).key(f.dataFileS3Key()).range(span.httpRange()));
            // a range has no MD5 of its own: each gzip member's CRC checks its bytes, the count its lines
            try (var reader = DataFileReader.selective(name, object, null, prefilter)) {
                for (ExportLine line; (line = reader.next()) != null; ) {
                    each.accept(line);
                }
                if (reader.lines() != span.items()) {
                    throw new CorruptDataFileException(name + " holds " + reader.lines()
                            + " lines but its manifest says " + span.items()
                            + "; the file was changed or damaged after the export");
                }
            }
        }
        return f.itemCount() == null ? span.items() : f.itemCount();
    }
}
