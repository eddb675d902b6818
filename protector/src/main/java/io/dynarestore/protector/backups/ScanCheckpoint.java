package io.dynarestore.protector.backups;

import io.dynarestore.contracts.Json;
import io.dynarestore.core.vault.BackupWriter;
import io.dynarestore.core.vault.VaultLayout;
import java.time.Instant;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * How far one segment of a backup's Scan has got, durably: the key of the last item in its last
 * uploaded data file, and what its uploaded files hold. Rule: written after each file is uploaded,
 * never before, so that a Scan resumed after that key (DynamoDB's ExclusiveStartKey) reads each item
 * the files do not hold once, and none they hold again. The last one of a segment is {@code done}:
 * it lists every file of the segment, and the backup is written from the done ones.
 *
 * @param segment  the Scan segment
 * @param segments how many segments the Scan has (a checkpoint of another split is not resumed)
 * @param lastKey  the key of the last item uploaded, as DynamoDB JSON ({@code null} once done)
 * @param uploaded the segment's uploaded files and their counts
 * @param done     whether the segment is scanned to its end
 * @param takenAt  when the backup's first attempt began its Scan: what a backup taken again stands for,
 *                 since its files hold items read from then on ({@code null} in checkpoints written before it)
 */
public record ScanCheckpoint(
        int segment, int segments, String lastKey, BackupWriter.Uploaded uploaded, boolean done, Instant takenAt) {

    /** The checkpoint of {@code segment} of {@code job}, or {@code null} where it has none. */
    public static ScanCheckpoint read(S3Client s3, VaultLayout layout, SegmentScan.Job job, int segment) {
        String key = key(layout, job.account(), job.region(), job.table(), job.backupId(), segment, job.segments());
        try {
            byte[] body =
                    s3.getObjectAsBytes(b -> b.bucket(layout.bucket()).key(key)).asByteArray();
            return Json.mapper().readValue(body, ScanCheckpoint.class);
        } catch (NoSuchKeyException e) {
            return null;
        }
    }

    /** The checkpoint's key under the backup's folder. */
    public static String key(
            VaultLayout layout,
            String account,
            String region,
            String table,
            String backupId,
            int segment,
            int segments) {
        return layout.backupPrefix(account, region, table, backupId) + "_scan/segment-" + segment + "-of-" + segments
                + ".json";
    }
}
