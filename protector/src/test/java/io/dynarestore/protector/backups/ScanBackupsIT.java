package io.dynarestore.protector.backups;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.contracts.protection.BackupMethod;
import io.dynarestore.contracts.protection.ChangeLogMethod;
import io.dynarestore.contracts.protection.ProtectionSet;
import io.dynarestore.core.vault.VaultLayout;
import io.dynarestore.testkit.CapacityProxy;
import io.dynarestore.testkit.Dynalite;
import io.dynarestore.testkit.RandomItems;
import io.dynarestore.testkit.S3Server;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** A SCAN backup against the capacity proxy, which meters what the Scan reads per second independently. */
class ScanBackupsIT {

    private static Dynalite dynalite;
    private static CapacityProxy proxy;
    private static S3Server s3;
    private static DynamoDbClient dynamo;

    @BeforeAll
    static void start() {
        dynalite = Dynalite.start();
        proxy = CapacityProxy.inFrontOf(dynalite.endpoint());
        s3 = S3Server.start("vault");
        dynamo = Dynalite.client(proxy.endpoint());
    }

    @AfterAll
    static void stop() {
        proxy.close();
        dynalite.close();
        s3.close();
    }

    @Test
    void aScanBackupStaysWithinItsShareOfTheTablesReadCapacityInEverySecond() {
        // Given a provisioned table of 40 RCU holding about 600 KB, and a policy that gives backups half of its reads
        Dynalite.createTable(
                dynamo,
                "metered",
                RandomItems.Shape.simple(),
                b -> b.provisionedThroughput(t -> t.readCapacityUnits(40L).writeCapacityUnits(1_000L)));
        var items = new RandomItems(3, RandomItems.Shape.simple());
        for (int i = 0; i < 400; i++) {
            int n = i;
            dynamo.putItem(b -> b.tableName("metered").item(items.largeItem(n, 1_500)));
        }
        var policy = ProtectionSet.of(
                "000000000000",
                "us-east-1",
                "metered",
                new ProtectionSet.Backups(BackupMethod.SCAN, "PT1H", "P1D", 50),
                new ProtectionSet.ChangeLog(ChangeLogMethod.NONE, null),
                "test");
        var table = dynamo.describeTable(b -> b.tableName("metered")).table();
        double budget = ScanBackups.readBudget(table, policy, true);
        assertThat(budget).isEqualTo(20.0);

        // When it is backed up by four Scan segments in pages of 20 items
        Instant started = Instant.now();
        var progress = new java.util.concurrent.atomic.AtomicLong();
        var backup = new ScanBackups(s3.client(), new VaultLayout("vault", ""), 100, 4, 20)
                .take(dynamo, true, policy, "b-metered", started, progress::set);
        Instant ended = Instant.now();

        // Then every item is in the backup, and no second read more than 110% of the budget
        assertThat(backup.itemCount()).isEqualTo(400);
        assertThat(progress.get()).as("items read, as last told").isEqualTo(400);
        Map<Long, Long> perSecond = proxy.readPerSecond("metered");
        long total = perSecond.values().stream().mapToLong(Long::longValue).sum();
        System.out.println("SCAN backup read units per second " + perSecond.values() + ", budget " + budget);
        assertThat(total).isGreaterThan(100);
        assertThat(perSecond.values())
                .allSatisfy(units -> assertThat(units).isLessThanOrEqualTo((long) (budget * 1.1)));
        assertThat(perSecond.size()).as("seconds the backup took").isGreaterThanOrEqualTo((int) (total / budget) - 1);

        // and it stands for its Scan's start but is exact only from its end: a write during the Scan may be in it
        assertThat(backup.metadata().takenAt()).isEqualTo(Instant.ofEpochSecond(started.getEpochSecond()));
        assertThat(backup.metadata().consistentAt()).isNotNull().isBetween(ended.minusSeconds(2), ended);
    }
}
