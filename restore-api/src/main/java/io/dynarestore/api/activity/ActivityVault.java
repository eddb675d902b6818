package io.dynarestore.api.activity;

import io.dynarestore.core.vault.ExportLine;
import io.dynarestore.core.vault.ExportMetadata;
import java.util.List;
import java.util.function.Consumer;

/** What a change timeline reads of one table's vault: its change-log exports and their writes. */
interface ActivityVault {

    /** The change-log exports, in any order. */
    List<ExportMetadata> exports();

    /** Hands {@code sink} every write {@code export} holds, in any order. */
    void changesIn(ExportMetadata export, Consumer<ExportLine> sink);
}
