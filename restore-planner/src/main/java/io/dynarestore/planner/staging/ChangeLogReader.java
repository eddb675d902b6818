package io.dynarestore.planner.staging;

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
        long read = 0;
        for (ExportMetadata export : exports) {
            String bucket = catalog.exportBucket(export);
            for (ManifestFile f : catalog.exportFiles(export)) {
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
}
