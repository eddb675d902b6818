package io.dynarestore.api.activity;

import io.dynarestore.core.vault.DataFileReader;
import io.dynarestore.core.vault.ExportLine;
import io.dynarestore.core.vault.ExportMetadata;
import io.dynarestore.core.vault.ManifestFile;
import io.dynarestore.core.vault.VaultCatalog;
import java.util.List;
import java.util.function.Consumer;
import software.amazon.awssdk.services.s3.S3Client;

/** One table's change log in the vault, every line of every file parsed (a count needs both images). */
final class VaultActivity implements ActivityVault {

    private final S3Client s3;
    private final VaultCatalog catalog;
    private final List<ExportMetadata> exports;

    VaultActivity(S3Client s3, VaultCatalog catalog, List<ExportMetadata> exports) {
        this.s3 = s3;
        this.catalog = catalog;
        this.exports = exports;
    }

    @Override
    public List<ExportMetadata> exports() {
        return exports;
    }

    @Override
    public void changesIn(ExportMetadata export, Consumer<ExportLine> sink) {
        String bucket = catalog.exportBucket(export);
        for (ManifestFile f : catalog.exportFiles(export)) {
            var object = s3.getObject(b -> b.bucket(bucket).key(f.dataFileS3Key()));
            try (var reader = new DataFileReader(f.dataFileS3Key(), object, f.md5Checksum())) {
                for (ExportLine line; (line = reader.next()) != null; ) {
                    if (line.writeTimestampMicros() != null) {
                        sink.accept(line);
                    }
                }
            }
        }
    }
}
