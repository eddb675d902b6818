package io.dynarestore.api.catalog;

import io.dynarestore.core.aws.AwsClients;
import io.dynarestore.core.vault.VaultCatalog;
import io.swagger.v3.oas.annotations.Operation;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** {@code /tables/{table}/backups}: the complete backups of a table in the vault, oldest first. */
@RestController
class BackupsController {

    private final VaultCatalog catalog;
    private final AwsClients aws;
    private final Clock clock;

    BackupsController(VaultCatalog catalog, AwsClients aws, Clock clock) {
        this.catalog = catalog;
        this.aws = aws;
        this.clock = clock;
    }

    @Operation(summary = "A table's backups", description = "Account and region default to the configured ones.")
    @GetMapping(path = "/tables/{table}/backups", produces = MediaType.APPLICATION_JSON_VALUE)
    Backups backups(
            @PathVariable String table,
            @RequestParam(required = false) String account,
            @RequestParam(required = false) String region) {
        var ref = TableRefs.of(table, account, region, aws);
        Instant now = clock.instant();
        var list = catalog.listBackups(ref.account(), ref.region(), table).stream()
                .map(b -> new BackupEntry(
                        b.backupId(), b.takenAt(), b.expiresAt(), b.expiredAt(now), b.itemCount(), b.sizeBytes()))
                .toList();
        return new Backups(table, ref.account(), ref.region(), list);
    }

    /** A table's backups. */
    record Backups(String table, String account, String region, List<BackupEntry> backups) {}

    /** One backup; {@code expired} ones are listed but cannot be restored. */
    record BackupEntry(
            String backupId, Instant takenAt, Instant expiresAt, boolean expired, long itemCount, long sizeBytes) {}
}
