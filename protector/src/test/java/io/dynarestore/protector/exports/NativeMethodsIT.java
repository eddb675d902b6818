package io.dynarestore.protector.exports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dynarestore.contracts.protection.BackupMethod;
import io.dynarestore.contracts.protection.ChangeLogMethod;
import io.dynarestore.contracts.protection.ProtectionSet;
import io.dynarestore.core.vault.DataFileReader;
import io.dynarestore.core.vault.ExportLine;
import io.dynarestore.core.vault.ExportMetadata;
import io.dynarestore.core.vault.ManifestFile;
import io.dynarestore.core.vault.VaultCatalog;
import io.dynarestore.core.vault.VaultLayout;
import io.dynarestore.protector.VaultImage;
import io.dynarestore.protector.backups.NativeExportBackups;
import io.dynarestore.protector.changelog.NativeIncrementalExports;
import io.dynarestore.testkit.ApiShapes;
import io.dynarestore.testkit.Dynalite;
import io.dynarestore.testkit.ItemDigests;
import io.dynarestore.testkit.RandomItems;
import io.dynarestore.testkit.RecordedWorkload;
import io.dynarestore.testkit.RecordingDynamo;
import io.dynarestore.testkit.S3Server;
import io.dynarestore.testkit.StreamedTables;
import io.dynarestore.testkit.StreamsEndpoint;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * NATIVE_EXPORT backups and a NATIVE_INCREMENTAL change log against the testkit's export endpoint
 * (the DynamoDB protocol, requests checked against AWS's model): the backup is the table at its
 * slot, the chain of incremental exports starts at it without gaps, and each export's end, and
 * nothing inside it, is restorable to exactly what the workload's own record says was there.
 */
class NativeMethodsIT {

    static final String ACCOUNT = "000000000000";
    static final String REGION = "us-east-1";
    static final Duration PERIOD = Duration.ofSeconds(3);

    private static Dynalite dynalite;
    private static StreamsEndpoint endpoint;
    private static RecordingDynamo recording;
    private static S3Server s3;
    private static DynamoDbClient dynamo;
    private static VaultCatalog catalog;
    private static TableExports exports;

    @BeforeAll
    static void start() {
        dynalite = Dynalite.start();
        s3 = S3Server.start("vault");
        endpoint = StreamsEndpoint.inFrontOf(dynalite.endpoint())
                .exportsTo(s3.client())
                .shortestIncrementalExport(Duration.ofSeconds(1));
        recording = RecordingDynamo.inFrontOf(endpoint.endpoint());
        dynamo = Dynalite.client(recording.endpoint());
        catalog = new VaultCatalog(s3.client(), new VaultLayout("vault", ""));
        exports = new TableExports(catalog, Duration.ofMillis(100), Duration.ofMinutes(1));
    }

    @AfterAll
    static void stop() {
        recording.close();
        endpoint.close();
        s3.close();
        dynalite.close();
    }

    static ProtectionSet policy(String table) {
        // a 3-second period, which only the test endpoint accepts (DynamoDB's shortest is 15 minutes)
        return policy(table, PERIOD);
    }

    static ProtectionSet policy(String table, Duration period) {
        return new ProtectionSet(
                "e",
                1,
                Instant.now(),
                ACCOUNT,
                REGION,
                table,
                new ProtectionSet.Backups(BackupMethod.NATIVE_EXPORT, "PT1H", "P1D", null),
                new ProtectionSet.ChangeLog(ChangeLogMethod.NATIVE_INCREMENTAL, period.toString()),
                "test",
                null);
    }

    private static TreeMap<String, String> backupImage(String table, String backupId, List<String> keys) {
        var backup = catalog.findBackup(ACCOUNT, REGION, table, backupId).orElseThrow();
        var items = new ArrayList<Map<String, AttributeValue>>();
        for (ManifestFile f : backup.files()) {
            try (var reader = new DataFileReader(
                    f.dataFileS3Key(),
                    s3.client().getObject(b -> b.bucket(backup.dataBucket()).key(f.dataFileS3Key())),
                    f.md5Checksum())) {
                ExportLine line;
                while ((line = reader.next()) != null) {
                    items.add(line.item());
                }
            }
        }
        return ItemDigests.of(items, keys);
    }

    @Test
    void aNativeBackupAndTheChainOfIncrementalExportsAfterItRestoreEachExportsEndExactly() throws Exception {
        // Given a table with point-in-time recovery, written at random for 10 seconds
        String table = "natively";
        var workload = recoverableTable(table, 29, 80);
        long begin = Instant.now().getEpochSecond();
        writeFor(workload, begin + 10); // no write straddles a second: every export's end can be checked
        long base = begin + 2;
        while (workload.isAmbiguous(base - 1)) {
            base++;
        }
        Instant slot = Instant.ofEpochSecond(base);
        ProtectionSet policy = policy(table);

        // When a NATIVE_EXPORT backup is taken of a past slot, twice (as after a takeover)
        var backups = new NativeExportBackups(catalog, exports);
        var taken = backups.take(dynamo, policy, "b-native", slot);
        backups.take(dynamo, policy, "b-native", slot);

        // Then it is the table at its slot, listed with the export's location, from one export
        assertThat(taken.metadata().takenAt()).isEqualTo(slot);
        assertThat(taken.metadata().location().prefix())
                .startsWith("000000000000/us-east-1/natively/backups/" + "b-native/AWSDynamoDB/");
        assertThat(catalog.listBackups(ACCOUNT, REGION, table))
                .extracting(VaultCatalog.BackupSummary::backupId)
                .containsExactly("b-native");
        var keys = workload.keyAttributes();
        assertThat(backupImage(table, "b-native", keys))
                .isEqualTo(workload.imageAt(slot.minusSeconds(1)))
                .hasSize((int) taken.itemCount());
        assertThat(dynamo.listExports(b -> b.tableArn("arn:aws:dynamodb:us-east-1:000000000000:table/" + table))
                        .exportSummaries())
                .hasSize(1);

        // When the change log exports every window that is due
        var chain = new NativeIncrementalExports(catalog, exports);
        var recorded = new ArrayList<ExportMetadata>();
        NativeIncrementalExports.Outcome outcome;
        while ((outcome = chain.step(dynamo, policy)).exported() != null) {
            assertThat(outcome.gap()).isNull();
            recorded.add(outcome.exported());
        }

        // Then the exports are chained from the backup without a gap, compacted, up to the workload's end
        assertThat(recorded).hasSizeGreaterThanOrEqualTo(2);
        assertThat(recorded.get(0).from()).isEqualTo(slot);
        for (int i = 1; i < recorded.size(); i++) {
            assertThat(recorded.get(i).from()).isEqualTo(recorded.get(i - 1).to());
        }
        assertThat(recorded).allSatisfy(e -> assertThat(e.compacted()).isTrue());
        assertThat(recorded.get(recorded.size() - 1).to())
                .isAfterOrEqualTo(Instant.ofEpochSecond(begin + 10).minus(PERIOD));

        // and the second before each export's end restores to exactly what had been written, and no second inside one
        var image = new VaultImage(s3.client(), catalog);
        int checked = 0;
        for (ExportMetadata e : recorded) {
            Instant last = e.to().minusSeconds(1);
            if (!workload.isAmbiguous(last.getEpochSecond())) {
                assertThat(image.at(ACCOUNT, REGION, table, last, keys))
                        .as("restore to %s", last)
                        .contains(workload.imageAt(last));
                checked++;
            }
            assertThat(image.coverage(ACCOUNT, REGION, table).resolve(e.from()))
                    .as("inside %s", e.exportId())
                    .isEmpty();
        }
        assertThat(checked).isGreaterThanOrEqualTo(recorded.size() / 2);

        // and every export request the protector sent conforms to AWS's model
        var sent = recording.sent("ExportTableToPointInTime").stream()
                .filter(s -> s.body().path("TableArn").asString().endsWith("/" + table))
                .toList();
        assertThat(sent).hasSize(recorded.size() + 2);
        assertThat(sent)
                .allSatisfy(s -> assertThat(ApiShapes.dynamodb().violations("ExportTableToPointInTime", s.body()))
                        .isEmpty());
        assertThat(recording.sent("DescribeExport"))
                .allSatisfy(s -> assertThat(ApiShapes.dynamodb().violations("DescribeExport", s.body()))
                        .isEmpty());
    }

    @Test
    void aRestoreGetsTheChainsTailExportedUpToItsAcceptanceWhenDynamoDbTakesAWindowThatLong() throws Exception {
        // Given a table with recovery, written at random, a native backup of it and the first export of its chain
        String table = "tailed";
        var workload = recoverableTable(table, 31, 60);
        long begin = Instant.now().getEpochSecond();
        writeFor(workload, begin + 5);
        Instant slot = Instant.ofEpochSecond(begin + 1);
        new NativeExportBackups(catalog, exports).take(dynamo, policy(table), "b-tailed", slot);
        var chain = new NativeIncrementalExports(catalog, exports);
        ExportMetadata first = chain.step(dynamo, policy(table)).exported();
        assertThat(first.from()).isEqualTo(slot);

        // and a policy whose period is an hour, so that no export is due by the period for the rest of the test
        var hourly = policy(table, Duration.ofHours(1));
        writeFor(workload, Instant.now().getEpochSecond() + 4);
        assertThat(chain.step(dynamo, hourly).exported()).isNull();

        // When a restore accepted now asks for the tail, with DynamoDB's shortest window (here 1 s) shorter than it
        Instant accepted = Instant.now();
        var outcome = chain.step(dynamo, hourly, accepted, Duration.ofSeconds(1));

        // Then one export runs from the chain's end to the acceptance's second, and restores its last second exactly
        ExportMetadata tail = outcome.exported();
        assertThat(tail).isNotNull();
        assertThat(tail.from()).isEqualTo(first.to());
        assertThat(tail.to()).isEqualTo(accepted.truncatedTo(ChronoUnit.SECONDS));
        Instant last = tail.to().minusSeconds(1);
        if (!workload.isAmbiguous(last.getEpochSecond())) {
            assertThat(new VaultImage(s3.client(), catalog).at(ACCOUNT, REGION, table, last, workload.keyAttributes()))
                    .contains(workload.imageAt(last));
        }

        // and no tail shorter than DynamoDB's shortest export (15 minutes) is asked of it
        int before = recording.sent("ExportTableToPointInTime").size();
        assertThat(chain.step(dynamo, hourly, Instant.now(), Duration.ofMinutes(15))
                        .exported())
                .isNull();
        assertThat(recording.sent("ExportTableToPointInTime")).hasSize(before);
    }

    /** A table with point-in-time recovery on, and a recorded random workload of it. */
    private static RecordedWorkload recoverableTable(String table, long seed, int keys) {
        StreamedTables.create(dynamo, table, RandomItems.Shape.simple());
        dynamo.updateContinuousBackups(
                b -> b.tableName(table).pointInTimeRecoverySpecification(p -> p.pointInTimeRecoveryEnabled(true)));
        return new RecordedWorkload(dynamo, table, RandomItems.Shape.simple(), seed, keys);
    }

    /** Steps the workload until the epoch second {@code end}, no write straddling a second. */
    private static void writeFor(RecordedWorkload workload, long end) throws InterruptedException {
        while (Instant.now().getEpochSecond() < end) {
            long inSecond = System.currentTimeMillis() % 1000;
            if (inSecond > 940) {
                Thread.sleep(1000 - inSecond);
            }
            workload.step();
            Thread.sleep(5);
        }
    }

    @Test
    void aTableWithoutPointInTimeRecoveryIsRefusedWithTheCommandThatEnablesIt() {
        // Given a table whose point-in-time recovery is off
        String table = "unrecovered";
        StreamedTables.create(dynamo, table, RandomItems.Shape.simple());

        // Then neither native method can protect it, and each says how to fix it
        assertThatThrownBy(
                        () -> new NativeExportBackups(catalog, exports).take(dynamo, policy(table), "b", Instant.now()))
                .isInstanceOf(TableExports.ExportFailedException.class)
                .hasMessageContaining("update-continuous-backups --table-name unrecovered");
        assertThatThrownBy(() -> new NativeIncrementalExports(catalog, exports).step(dynamo, policy(table)))
                .isInstanceOf(TableExports.ExportFailedException.class)
                .hasMessageContaining("PointInTimeRecoveryEnabled=true");
        assertThat(catalog.listBackups(ACCOUNT, REGION, table)).isEmpty();
    }
}
