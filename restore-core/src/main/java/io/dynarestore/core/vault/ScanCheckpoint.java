package io.dynarestore.core.vault;

/**
 * How far one segment of a backup's Scan has got, durably: the key of the last item in its last
 * uploaded data file, and what its uploaded files hold. Rule: written after each file is uploaded,
 * never before, so that a Scan resumed after that key (DynamoDB's ExclusiveStartKey) reads each item
 * the files do not hold once, and none they hold again.
 *
 * @param segment  the Scan segment
 * @param segments how many segments the Scan has (a checkpoint of another split is not resumed)
 * @param lastKey  the key of the last item uploaded, as DynamoDB JSON
 * @param uploaded the segment's uploaded files and their counts
 */
public record ScanCheckpoint(int segment, int segments, String lastKey, BackupWriter.Uploaded uploaded) {

    /** The checkpoint's key under the backup's folder. */
    static String key(VaultLayout layout, String account, String region, String table, String backupId,
                      int segment, int segments) {
        return layout.backupPrefix(account, region, table, backupId) + "_scan/segment-" + segment + "-of-" + segments
                + ".json";
    }
}
