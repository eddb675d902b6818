package io.dynarestore.protector.drills;

import static io.dynarestore.protector.drills.DrillPolicies.ACCOUNT;
import static io.dynarestore.protector.drills.DrillPolicies.REGION;
import static io.dynarestore.protector.drills.DrillPolicies.TABLE;
import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.contracts.protection.DrillFailed;
import io.dynarestore.contracts.protection.DrillSkipped;
import io.dynarestore.contracts.protection.ProtectionEvent;
import io.dynarestore.contracts.protection.ProtectionSet.DrillSource;
import io.dynarestore.core.vault.BackupWriter;
import io.dynarestore.core.vault.VaultCatalog;
import io.dynarestore.core.vault.VaultLayout;
import io.dynarestore.testkit.RandomItems;
import io.dynarestore.testkit.S3Server;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * ADR 0047 on a vault in S3Proxy: a drill that finds nothing to restore is skipped while a newly protected
 * table's first backup is still due, and fails (an alert) once backups were taken and have expired, or when
 * the first one never came. Neither asks for a restore.
 */
class FirstBackupDrillIT {

    private static final Instant SLOT = Instant.now().truncatedTo(ChronoUnit.HOURS);
    private static S3Server s3;
    private static VaultCatalog catalog;
    private final List<ProtectionEvent> events = new ArrayList<>();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private DrillRunner runner;

    @BeforeAll
    static void start() {
        s3 = S3Server.start("vault");
        catalog = new VaultCatalog(s3.client(), new VaultLayout("vault", ""));
    }

    @AfterAll
    static void stop() {
        s3.close();
    }

    @BeforeEach
    void givenAnEmptyVaultAndARunnerWithNoWayToPublishARestore() {
        for (var page : s3.client().listObjectsV2Paginator(b -> b.bucket("vault"))) {
            page.contents()
                    .forEach(
                            o -> s3.client().deleteObject(b -> b.bucket("vault").key(o.key())));
        }
        // no publisher and no DynamoDB: a drill that asked for a restore would fail saying it could not start
        runner = new DrillRunner(
                catalog,
                null,
                null,
                events::add,
                key -> true,
                Runnable::run,
                registry,
                Clock.fixed(SLOT.plusSeconds(1), ZoneOffset.UTC));
    }

    @ParameterizedTest
    @EnumSource(DrillSource.class)
    void aDrillOfANewTableWhoseFirstBackupIsBeingTakenIsSkippedNotFailed(DrillSource source) {
        // Given a table protected a day ago (a first backup of a big table may take that long) with no
        // backup in the vault yet
        var p = DrillPolicies.setAt(SLOT.minus(Duration.ofDays(1)), source);

        // When its drill slot comes while the guard takes the first backup
        runner.start(p, SLOT, true);

        // Then the drill is skipped, saying why, and nobody is alerted
        assertThat(events).singleElement().isInstanceOf(DrillSkipped.class);
        var skipped = (DrillSkipped) events.get(0);
        assertThat(skipped.reason()).contains("first backup is still being taken");
        assertThat(skipped.drillId()).isEqualTo(DrillRunner.drillId(DrillRunner.restoreId(p, SLOT)));
        assertThat(outcomes("skipped")).isEqualTo(1.0);
        assertThat(outcomes("failed")).isZero();
    }

    @ParameterizedTest
    @EnumSource(DrillSource.class)
    void aDrillOfATableJustProtectedIsSkippedBetweenTwoTriesOfItsFirstBackup(DrillSource source) {
        // Given a table protected ten minutes ago, no backup yet and none being taken (the first try failed)
        var p = DrillPolicies.setAt(SLOT.minus(Duration.ofMinutes(10)), source);

        // When its drill slot comes, Then it is skipped
        runner.start(p, SLOT, false);

        assertThat(events).singleElement().isInstanceOf(DrillSkipped.class);
    }

    @ParameterizedTest
    @EnumSource(DrillSource.class)
    void aDrillOfATableWhoseFirstBackupNeverCameFails(DrillSource source) {
        // Given a table protected two hours ago with no backup and none being taken
        var p = DrillPolicies.setAt(SLOT.minus(Duration.ofHours(2)), source);

        // When its drill slot comes, Then the drill failed: the protection is not working
        runner.start(p, SLOT, false);

        assertThat(events).singleElement().isInstanceOf(DrillFailed.class);
        assertThat(((DrillFailed) events.get(0)).reason()).containsAnyOf("no unexpired backup", "no second");
        assertThat(outcomes("failed")).isEqualTo(1.0);
    }

    @ParameterizedTest
    @EnumSource(DrillSource.class)
    void aDrillOfATableWhoseBackupsHaveAllExpiredFailsEvenWhileABackupIsTaken(DrillSource source) {
        // Given a table whose one backup expired an hour ago, its policy set again a minute ago
        backup("b-1", SLOT.minus(Duration.ofDays(8)), SLOT.minus(Duration.ofHours(1)));
        var p = DrillPolicies.setAt(SLOT.minus(Duration.ofMinutes(1)), source);

        // When its drill slot comes while a backup is being taken
        runner.start(p, SLOT, true);

        // Then the drill failed: the backups stopped, which is what drills are for
        assertThat(events).singleElement().isInstanceOf(DrillFailed.class);
        assertThat(outcomes("skipped")).isZero();
    }

    private double outcomes(String outcome) {
        return registry.counter("dynarestore.protector.drills", "outcome", outcome)
                .count();
    }

    private void backup(String id, Instant takenAt, Instant expiresAt) {
        var writer = new BackupWriter(s3.client(), catalog.layout(), ACCOUNT, REGION, TABLE, id, 100);
        try (var part = writer.openPart()) {
            part.write(new RandomItems(7, RandomItems.Shape.simple()).item(0));
        }
        var key = KeySchemaElement.builder()
                .attributeName("pk")
                .keyType(KeyType.HASH)
                .build();
        var range = KeySchemaElement.builder()
                .attributeName("sk")
                .keyType(KeyType.RANGE)
                .build();
        writer.finish(
                TableDescription.builder()
                        .tableName(TABLE)
                        .keySchema(key, range)
                        .build(),
                List.of(),
                null,
                takenAt,
                expiresAt);
    }
}
