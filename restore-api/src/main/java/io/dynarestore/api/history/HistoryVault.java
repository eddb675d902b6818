package io.dynarestore.api.history;

import io.dynarestore.core.vault.ExportLine;
import io.dynarestore.core.vault.ExportMetadata;
import io.dynarestore.core.vault.VaultCatalog.BackupSummary;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** What an item's history reads of one table's vault: its unexpired backups and change-log exports, by one key. */
interface HistoryVault {

    /** The unexpired backups, in any order. */
    List<BackupSummary> backups();

    /** The change-log exports, in any order. */
    List<ExportMetadata> exports();

    /** The item of {@code key} in {@code backup}, or {@code null} when the backup does not hold it. */
    Map<String, AttributeValue> imageIn(BackupSummary backup, Map<String, AttributeValue> key);

    /** Hands {@code sink} every change of {@code key} that {@code export} holds, in any order. */
    void changesIn(ExportMetadata export, Map<String, AttributeValue> key, Consumer<ExportLine> sink);
}
