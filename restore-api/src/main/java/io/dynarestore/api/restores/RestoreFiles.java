package io.dynarestore.api.restores;

import io.dynarestore.contracts.status.ExportCompleted;
import io.dynarestore.core.aws.AwsClients;
import java.util.Optional;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody;

/**
 * The granular-recovery files of restores, for whoever may hand them out (the download of the
 * requester, the passcode-protected link). Streams from the vault; never holds a file in memory.
 */
public final class RestoreFiles {

    private final RestoreViews views;
    private final AwsClients aws;

    RestoreFiles(RestoreViews views, AwsClients aws) {
        this.views = views;
        this.aws = aws;
    }

    /** The restore's file, once the exporter wrote it. */
    public Optional<ExportCompleted> file(String restoreId) {
        return views.file(restoreId);
    }

    /** The restore's summary, if the restore is known. */
    public Optional<RestoreSummary> summary(String restoreId) {
        return views.find(restoreId);
    }

    /** The file as an attachment, with its SHA-256 in {@code X-Checksum-SHA256}. */
    public ResponseEntity<StreamingResponseBody> stream(ExportCompleted file) {
        StreamingResponseBody body = out -> {
            try (var in = aws.s3().getObject(b -> b.bucket(file.bucket()).key(file.key()))) {
                in.transferTo(out);
            }
        };
        return ResponseEntity.ok()
                .header(HttpHeaders.CONTENT_TYPE, "text/csv; charset=utf-8")
                .header(HttpHeaders.CONTENT_DISPOSITION, "attachment; filename=\"" + fileName(file) + "\"")
                .header(HttpHeaders.CONTENT_LENGTH, String.valueOf(file.bytes()))
                .header(HttpHeaders.CACHE_CONTROL, "no-store")
                .header("X-Checksum-SHA256", file.sha256())
                .body(body);
    }

    public static String fileName(ExportCompleted file) {
        return file.key().substring(file.key().lastIndexOf('/') + 1);
    }
}
