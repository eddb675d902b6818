package io.dynarestore.planner.destination;

import io.dynarestore.contracts.status.TableRef;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.ImportTableRequest;
import software.amazon.awssdk.services.dynamodb.model.RestoreTableFromBackupRequest;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * DynamoDB's own ways of making a whole table: ImportTable from S3 and RestoreTableFromBackup of
 * a native backup. Both are asynchronous, so each has a call that starts the work (safe to repeat
 * after a crash) and one that says how far it is.
 */
public interface NativeTables {

    /**
     * Starts the import, or finds the one an earlier attempt of this restore started (same client
     * token, or the import into that table from the same staging prefix); returns its ARN.
     */
    String startImport(TableRef table, ImportTableRequest request);

    /** Where an import stands. */
    ImportProgress importProgress(TableRef table, String importArn);

    /**
     * Starts restoring a Snap into {@code table}. A table of that name already restored from the
     * same backup is taken as started by an earlier attempt; any other is refused.
     */
    void restoreSnap(TableRef table, RestoreTableFromBackupRequest request);

    /** The restored table once DynamoDB finished restoring it (ACTIVE), or empty while it works. */
    Optional<TableDescription> restoredTable(TableRef table);

    /**
     * @param status  IN_PROGRESS, COMPLETED, CANCELLING, CANCELLED or FAILED
     * @param failure DynamoDB's failure code and message of a failed import
     */
    record ImportProgress(String status, long itemsImported, long bytesProcessed, long errors, String failure) {
        public boolean done() {
            return !"IN_PROGRESS".equals(status) && !"CANCELLING".equals(status);
        }
    }
}
