package io.dynarestore.protector.backups;

import io.dynarestore.core.vault.VaultLayout;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * Why a shared segment of a SCAN backup could not be scanned, beside its checkpoint in the vault
 * ({@code _scan/segment-i-of-n.failed}): the replica that scanned it says so there, and the replica
 * that waits for the backup reads it and fails the backup (which is taken again later, on from the
 * checkpoints). Rule: cleared before a segment is asked for again.
 */
final class SegmentFailures {

    private final S3Client s3;
    private final VaultLayout layout;

    SegmentFailures(S3Client s3, VaultLayout layout) {
        this.s3 = s3;
        this.layout = layout;
    }

    void record(SegmentScan.Job job, int segment, String reason) {
        s3.putObject(
                b -> b.bucket(layout.bucket()).key(key(job, segment)).contentType("text/plain"),
                RequestBody.fromString(reason, StandardCharsets.UTF_8));
    }

    Optional<String> of(SegmentScan.Job job, int segment) {
        try {
            return Optional.of(
                    s3.getObjectAsBytes(b -> b.bucket(layout.bucket()).key(key(job, segment)))
                            .asUtf8String());
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        }
    }

    void clear(SegmentScan.Job job, int segment) {
        s3.deleteObject(b -> b.bucket(layout.bucket()).key(key(job, segment)));
    }

    /** Where the failure of {@code segment} is recorded. */
    String key(SegmentScan.Job job, int segment) {
        String checkpoint = ScanCheckpoint.key(
                layout, job.account(), job.region(), job.table(), job.backupId(), segment, job.segments());
        return checkpoint.substring(0, checkpoint.length() - ".json".length()) + ".failed";
    }
}
