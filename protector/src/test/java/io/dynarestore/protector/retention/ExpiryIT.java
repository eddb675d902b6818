package io.dynarestore.protector.retention;

import static io.dynarestore.protector.retention.RestoreEvents.ACCOUNT;
import static io.dynarestore.protector.retention.RestoreEvents.REGION;
import static io.dynarestore.protector.retention.RestoreEvents.TABLE;
import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.core.vault.BackupWriter;
import io.dynarestore.core.vault.ExportLine;
import io.dynarestore.core.vault.ExportMetadata;
import io.dynarestore.core.vault.IncrementalExportWriter;
import io.dynarestore.core.vault.VaultCatalog;
import io.dynarestore.core.vault.VaultCatalog.BackupSummary;
import io.dynarestore.core.vault.VaultLayout;
import io.dynarestore.testkit.RandomItems;
import io.dynarestore.testkit.S3Server;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * Retention on S3Proxy: what expires goes, marker first; the change log goes once it extends no kept
 * backup; and a backup a restore in progress reads stays, with its change log, until that restore ends.
 */
class ExpiryIT {

    private static final Instant NOW = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    private static final List<String> OWN = List.of("stream-", "native-");
    private static S3Server s3;
    private static VaultCatalog catalog;
    private static Expiry expiry;
    private final RandomItems items = new RandomItems(5, RandomItems.Shape.simple());

    @BeforeAll
    static void start() {
        s3 = S3Server.start("vault");
        catalog = new VaultCatalog(s3.client(), new VaultLayout("vault", ""));
        expiry = new Expiry(s3.client(), catalog, Duration.ofHours(1));
    }

    @AfterAll
    static void stop() {
        s3.close();
    }

    @BeforeEach
    void givenAVaultOfThreeBackupsAndAStreamChangeLogAndAUsersExport() {
        for (var page : s3.client().listObjectsV2Paginator(b -> b.bucket("vault"))) {
            page.contents()
                    .forEach(
                            o -> s3.client().deleteObject(b -> b.bucket("vault").key(o.key())));
        }
        // b-1 and b-2 expired more than the grace ago; b-3 is kept
        backup("b-1", hoursAgo(50), hoursAgo(3));
        backup("b-2", hoursAgo(40), hoursAgo(2));
        backup("b-3", hoursAgo(30), NOW.plus(Duration.ofDays(1)));
        // the capture's exports, each ten hours, the latest holding its checkpoint; a user's own export, old
        for (int i = 0; i < 5; i++) {
            export("stream-" + i, hoursAgo(50 - 10 * i), hoursAgo(40 - 10 * i));
        }
        export("user-export", hoursAgo(60), hoursAgo(55));
    }

    @Test
    void expiredBackupsGoAndTheChangeLogThatExtendsNoKeptBackupGoesWithThem() {
        // When retention runs and no restore is in progress
        var gone = expiry.run(ACCOUNT, REGION, TABLE, OWN, RestoreHolds.Held.NOTHING, NOW);

        // Then b-1 and b-2 are deleted, every object of them, and b-3 stays
        assertThat(gone.backups()).extracting(BackupSummary::backupId).containsExactly("b-1", "b-2");
        assertThat(backups()).containsExactly("b-3");
        assertThat(objectsUnder(catalog.layout().backupPrefix(ACCOUNT, REGION, TABLE, "b-1")))
                .isZero();
        // and the capture's exports that end at or before b-3 (taken 30 h ago) are deleted; the user's is not
        assertThat(gone.exports()).extracting(ExportMetadata::exportId).containsExactly("stream-0", "stream-1");
        assertThat(exports()).containsExactly("stream-2", "stream-3", "stream-4", "user-export");
        assertThat(objectsUnder(catalog.layout().exportPrefix(ACCOUNT, REGION, TABLE, "stream-0")))
                .isZero();
    }

    @Test
    void aBackupARestoreInProgressReadsStaysWithItsChangeLogUntilTheRestoreEnds() {
        // Given a restore to a second after b-2, planned on b-2
        var holds = new RestoreHolds(100, Duration.ofDays(7));
        Instant t = hoursAgo(35);
        holds.fold(RestoreEvents.acceptedAt("r-1", t));
        holds.fold(RestoreEvents.plannedOn("r-1", "b-2", hoursAgo(40)));

        // When retention runs
        var gone = expiry.run(ACCOUNT, REGION, TABLE, OWN, holds.of(ACCOUNT, REGION, TABLE, NOW), NOW);

        // Then b-1 goes but b-2 stays, and so does the change log from b-2 on, which the restore replays
        assertThat(gone.backups()).extracting(BackupSummary::backupId).containsExactly("b-1");
        assertThat(backups()).containsExactly("b-2", "b-3");
        assertThat(exports()).containsExactly("stream-1", "stream-2", "stream-3", "stream-4", "user-export");
        assertThat(catalog.findBackup(ACCOUNT, REGION, TABLE, "b-2")).isPresent();

        // When the restore completes, the next round deletes them
        holds.fold(RestoreEvents.completed("r-1"));
        gone = expiry.run(ACCOUNT, REGION, TABLE, OWN, holds.of(ACCOUNT, REGION, TABLE, NOW), NOW);
        assertThat(gone.backups()).extracting(BackupSummary::backupId).containsExactly("b-2");
        assertThat(backups()).containsExactly("b-3");
        assertThat(exports()).containsExactly("stream-2", "stream-3", "stream-4", "user-export");
    }

    @Test
    void aBackupInsideItsGraceStaysAndNoChangeLogExportIsEverTheLatestDeleted() {
        // When retention runs half an hour after b-2 expired, with the grace of an hour
        var gone = expiry.run(
                ACCOUNT,
                REGION,
                TABLE,
                OWN,
                RestoreHolds.Held.NOTHING,
                hoursAgo(2).plus(Duration.ofMinutes(30)));

        // Then only b-1 (expired 3 h before) goes
        assertThat(gone.backups()).extracting(BackupSummary::backupId).containsExactly("b-1");
        assertThat(backups()).containsExactly("b-2", "b-3");
        assertThat(exports()).contains("stream-4");
    }

    @Test
    void eachShardGroupsChainKeepsItsLatestExportThoughAnotherGroupFlushedLater() {
        // Given, beside the whole-table chain, group 0 of 2 that stopped 35 hours ago (before b-3 was taken)
        // and group 1 of 2 that goes on
        export("stream-g0of2-0", hoursAgo(45), hoursAgo(40), new ExportMetadata.ShardGroup(0, 2));
        export("stream-g0of2-1", hoursAgo(40), hoursAgo(35), new ExportMetadata.ShardGroup(0, 2));
        export("stream-g1of2-0", hoursAgo(45), hoursAgo(35), new ExportMetadata.ShardGroup(1, 2));
        export("stream-g1of2-1", hoursAgo(35), hoursAgo(1), new ExportMetadata.ShardGroup(1, 2));

        // When retention runs
        var gone = expiry.run(ACCOUNT, REGION, TABLE, OWN, RestoreHolds.Held.NOTHING, NOW);

        // Then each chain keeps its latest export (group 0's holds the checkpoint its next capture resumes
        // from), and the earlier exports that end before b-3 go
        assertThat(gone.exports())
                .extracting(ExportMetadata::exportId)
                .containsExactlyInAnyOrder("stream-0", "stream-1", "stream-g0of2-0", "stream-g1of2-0");
        assertThat(exports()).contains("stream-g0of2-1", "stream-g1of2-1", "stream-4");
    }

    private static Instant hoursAgo(int hours) {
        return NOW.minus(Duration.ofHours(hours));
    }

    private void backup(String id, Instant takenAt, Instant expiresAt) {
        var writer = new BackupWriter(s3.client(), catalog.layout(), ACCOUNT, REGION, TABLE, id, 100);
        try (var part = writer.openPart()) {
            for (int i = 0; i < 3; i++) {
                part.write(items.item(i));
            }
        }
        writer.finish(
                TableDescription.builder()
                        .tableName(TABLE)
                        .keySchema(
                                KeySchemaElement.builder()
                                        .attributeName("pk")
                                        .keyType(KeyType.HASH)
                                        .build(),
                                KeySchemaElement.builder()
                                        .attributeName("sk")
                                        .keyType(KeyType.RANGE)
                                        .build())
                        .build(),
                List.of(),
                null,
                takenAt,
                expiresAt);
    }

    private void export(String id, Instant from, Instant to) {
        export(id, from, to, null);
    }

    private void export(String id, Instant from, Instant to, ExportMetadata.ShardGroup group) {
        var writer = new IncrementalExportWriter(
                        s3.client(), catalog.layout(), ACCOUNT, REGION, TABLE, id, from, to, 100)
                .shardGroup(group);
        Map<String, AttributeValue> item = items.item(1);
        try (var part = writer.openPart()) {
            part.write(ExportLine.change(
                    Map.of("pk", item.get("pk"), "sk", item.get("sk")),
                    null,
                    item,
                    from.getEpochSecond() * 1_000_000L));
        }
        writer.finish();
    }

    private List<String> backups() {
        return catalog.listBackups(ACCOUNT, REGION, TABLE).stream()
                .map(BackupSummary::backupId)
                .sorted()
                .toList();
    }

    private List<String> exports() {
        return catalog.listExports(ACCOUNT, REGION, TABLE).stream()
                .map(ExportMetadata::exportId)
                .sorted()
                .toList();
    }

    private long objectsUnder(String prefix) {
        return s3.client().listObjectsV2(b -> b.bucket("vault").prefix(prefix)).keyCount();
    }
}
