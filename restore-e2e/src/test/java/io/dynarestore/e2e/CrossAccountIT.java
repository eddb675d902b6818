package io.dynarestore.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.core.aws.ExternalIds;
import io.dynarestore.testkit.Dynalite;
import io.dynarestore.testkit.ItemDigests;
import io.dynarestore.testkit.LocalSts;
import io.dynarestore.testkit.RandomItems;
import io.dynarestore.testkit.RecordingDynamo;
import io.dynarestore.testkit.TopicRecorder;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

/**
 * Restores into another region and another account. Two dynalite servers stand for two places:
 * A is account 000000000000's us-east-1 (where the backups come from); B is its eu-west-1, and
 * also accounts 111111111111 and 222222222222, reached only with credentials a local STS issued
 * for their roles (a proxy in front of B refuses any other key). The STS stand-in enforces each
 * role's trust policy: 111's demands the ExternalId this installation derives for it, 222's
 * demands another.
 */
class CrossAccountIT {

    static final String SECRET = "cross-account-test-secret-0123456789";
    static final String ROLE_111 = "arn:aws:iam::111111111111:role/dynarestore-restore";
    static final String ROLE_222 = "arn:aws:iam::222222222222:role/dynarestore-restore";
    static final int ITEMS = 1_500;

    static RestoreStack stack;
    static Dynalite other;
    static RecordingDynamo otherAccounts;
    static LocalSts sts;
    static TopicRecorder status;
    static RandomItems items = new RandomItems(111, BackupFixtures.SHAPE);

    @BeforeAll
    static void startStack() throws Exception {
        stack = RestoreStack.infrastructure();
        other = Dynalite.start();
        sts = LocalSts.start()
                .role(ROLE_111, ExternalIds.of(SECRET, "111111111111"))
                .role(ROLE_222, "an-external-id-of-someone-else");
        otherAccounts = RecordingDynamo.inFrontOf(other.endpoint()).acceptOnly(sts::issuedAccessKeys);
        stack.aws(
                "aws.sts.endpoint=" + sts.endpoint(),
                "aws.external-id-secret=" + SECRET,
                "aws.accounts[0].id=000000000000",
                "aws.accounts[0].regions.us-east-1.dynamodb-endpoint=" + stack.dynalite.endpoint(),
                "aws.accounts[0].regions.eu-west-1.dynamodb-endpoint=" + other.endpoint(),
                "aws.accounts[1].id=111111111111",
                "aws.accounts[1].role-arn=" + ROLE_111,
                "aws.accounts[1].regions.us-east-1.dynamodb-endpoint=" + otherAccounts.endpoint(),
                "aws.accounts[2].id=222222222222",
                "aws.accounts[2].role-arn=" + ROLE_222,
                "aws.accounts[2].regions.us-east-1.dynamodb-endpoint=" + otherAccounts.endpoint());
        stack.startPlanner();
        stack.startWriter();
        stack.startApi();
        status = stack.followStatus();
        var source = BackupFixtures.createSourceTable(stack.dynalite.client(), "orders");
        BackupFixtures.writeBackup(
                stack, source, "b-x", items, ITEMS, 500, -1, Instant.now().plus(Duration.ofDays(1)));
    }

    @AfterAll
    static void stopStack() {
        status.close();
        stack.close();
        otherAccounts.close();
        other.close();
        sts.close();
    }

    /** The other server's table holds every item of the backup, and nothing else. */
    static void assertHoldsEveryItem(String table) {
        assertThat(ItemDigests.ofTable(other.client(), table, BackupFixtures.KEYS))
                .isEqualTo(ItemDigests.of(items.items(ITEMS), BackupFixtures.KEYS));
    }

    /** The destination a completed restore reports. */
    static JsonNode completedDestination(String restoreId) {
        return status.last(restoreId, "RestoreCompleted").get("destination");
    }

    @Test
    void restoresIntoAnotherRegionThroughThatRegionsEndpoint() throws Exception {
        // When a backup of us-east-1 is restored into a new table in eu-west-1
        String id = restore("""
                {"source": {"table": "orders", "backupId": "b-x"},
                 "destination": {"type": "NEW_TABLE", "region": "eu-west-1", "tableName": "orders-eu"}}""");

        // Then the table is in the other region's server, with every item, and not in the source's
        assertHoldsEveryItem("orders-eu");
        assertThat(stack.dynalite.client().listTables().tableNames()).doesNotContain("orders-eu");
        assertThat(completedDestination(id).get("region").asString()).isEqualTo("eu-west-1");
    }

    @Test
    void restoresIntoAnotherAccountByAssumingItsRoleWithOurExternalId() throws Exception {
        // When a backup of account 000000000000 is restored into a new table of account 111111111111
        String id = restore("""
                {"source": {"table": "orders", "backupId": "b-x"},
                 "destination": {"type": "NEW_TABLE", "account": "111111111111", "tableName": "orders-111"}}""");

        // Then the table is in that account, with every item
        assertHoldsEveryItem("orders-111");
        assertThat(completedDestination(id).get("account").asString()).isEqualTo("111111111111");

        // and it was reached only with the role's temporary credentials, got with this installation's ExternalId
        var sent = otherAccounts.sent().stream()
                .filter(s -> s.body().has("TableName")
                        ? s.body().get("TableName").asString().equals("orders-111")
                        : s.body().has("RequestItems")
                                && s.body().get("RequestItems").has("orders-111"))
                .toList();
        assertThat(sent).extracting(s -> s.operation()).contains("CreateTable", "BatchWriteItem");
        assertThat(sent).allSatisfy(s -> assertThat(sts.issuedAccessKeys()).contains(s.accessKeyId()));
        assertThat(sts.presentedExternalIds()).containsEntry(ROLE_111, ExternalIds.of(SECRET, "111111111111"));

        // and GET /accounts shows operators the role and the ExternalId to put in its trust policy
        JsonNode accounts = Http.get(stack.apiUri("/accounts")).json().get("accounts");
        JsonNode a111 = null;
        for (JsonNode a : accounts) {
            if (a.get("id").asString().equals("111111111111")) {
                a111 = a;
            }
        }
        assertThat(a111).isNotNull();
        assertThat(a111.get("roleArn").asString()).isEqualTo(ROLE_111);
        assertThat(a111.get("externalId").asString())
                .isEqualTo(ExternalIds.of(SECRET, "111111111111"))
                .startsWith("dynarestore-");
        assertThat(a111.get("regions").has("us-east-1")).isTrue();
    }

    @Test
    void refusesAnAccountWhoseRoleDoesNotTrustOurExternalId() throws Exception {
        // When a restore targets account 222222222222, whose role demands another ExternalId
        int refusedBefore = sts.refused();
        var response = Http.post(stack.apiUri("/restores"), """
                {"source": {"table": "orders", "backupId": "b-x"},
                 "destination": {"type": "NEW_TABLE", "account": "222222222222", "tableName": "orders-222"}}""");

        // Then it is refused, naming the role, the ExternalId to trust and the fix
        assertThat(response.status()).as(response.body()).isEqualTo(422);
        JsonNode problem = response.json();
        assertThat(problem.get("code").asString()).isEqualTo("ACCESS_DENIED");
        assertThat(problem.get("detail").asString())
                .contains(ROLE_222)
                .contains(ExternalIds.of(SECRET, "222222222222"));
        assertThat(sts.refused()).isGreaterThan(refusedBefore);
        assertThat(other.client().listTables().tableNames()).doesNotContain("orders-222");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "another account | \"account\": \"111111111111\" | /destination/account",
                "another region  | \"region\": \"eu-west-1\"     | /destination/region",
            })
    void refusesAnInPlaceRestoreAcross(String name, String where, String field) throws Exception {
        // When an in-place restore names another account or region than its source's
        var response = Http.post(stack.apiUri("/restores"), """
                {"source": {"table": "orders", "backupId": "b-x"}, "destination": {"type": "IN_PLACE", %s}}""".formatted(where));

        // Then it is refused with the field and the fix
        assertThat(response.status()).as(response.body()).isEqualTo(400);
        JsonNode problem = response.json();
        assertThat(problem.get("code").asString()).isEqualTo("INVALID_REQUEST");
        assertThat(problem.get("errors").findValuesAsString("field")).contains(field);
        assertThat(problem.get("detail").asString()).contains("NEW_TABLE");
    }

    static String restore(String body) throws Exception {
        return stack.restoreAndAwaitCompletion(body);
    }
}
