package io.dynarestore.protector.exports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dynarestore.core.vault.VaultLayout;
import io.dynarestore.protector.backups.NativeExportBackups;
import io.dynarestore.protector.changelog.NativeIncrementalExports;
import io.dynarestore.testkit.ApiShapes;
import io.dynarestore.testkit.SentRequests;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ExportTableToPointInTimeRequest;

/**
 * The export requests of the native methods, exactly as the SDK puts them on the wire, checked
 * against AWS's published model of the DynamoDB API (no local server implements exports; the
 * testkit's endpoint checks the same model, so its integration tests cannot drift from it either).
 */
class ExportRequestsContractTest {

    static final String TABLE_ARN = "arn:aws:dynamodb:eu-west-1:111122223333:table/orders";
    static final VaultLayout VAULT = new VaultLayout("vault", "dr/");

    private final SentRequests sent = new SentRequests();
    private final DynamoDbClient dynamo = DynamoDbClient.builder()
            .endpointOverride(URI.create("http://127.0.0.1:9"))
            .region(Region.EU_WEST_1)
            .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("k", "s")))
            .overrideConfiguration(c -> c.addExecutionInterceptor(sent))
            .build();

    @AfterEach
    void close() {
        dynamo.close();
    }

    private SentRequests.Sent send(ExportTableToPointInTimeRequest request) {
        assertThatThrownBy(() -> dynamo.exportTableToPointInTime(request)).isInstanceOf(SentRequests.Captured.class);
        return sent.only("ExportTableToPointInTime");
    }

    @Test
    void sendsAFullExportIntoTheBackupsFolderAsTheApiDefinesIt() {
        // Given a scheduled backup's id and folder
        String id = "20261201T120000Z-scheduled";
        String folder = VAULT.backupPrefix("111122223333", "eu-west-1", "orders", id);

        // When its export request is sent
        var request = send(NativeExportBackups.request(
                TABLE_ARN, Instant.parse("2026-12-01T12:00:00Z"), id, VAULT.bucket(), folder));

        // Then it conforms to the model and exports the table as it was at the slot, into the backup's folder
        assertThat(ApiShapes.dynamodb().violations("ExportTableToPointInTime", request.body()))
                .isEmpty();
        assertThat(request.body().path("ExportType").asString()).isEqualTo("FULL_EXPORT");
        assertThat(request.body().path("ExportFormat").asString()).isEqualTo("DYNAMODB_JSON");
        assertThat(request.body().path("ExportTime").asLong()).isEqualTo(1_796_126_400L);
        assertThat(request.body().path("S3Prefix").asString())
                .isEqualTo("dr/111122223333/eu-west-1/orders/backups/" + id);
        assertThat(request.body().path("ClientToken").asString())
                .isEqualTo(TableExports.clientToken(TABLE_ARN + "/backup/" + id));
    }

    @Test
    void sendsAnIncrementalExportOfOneWindowAsTheApiDefinesIt() {
        // Given the next window of a chain
        var window = new NativeIncrementalExports.Window(
                Instant.parse("2026-12-01T12:00:00Z"),
                Instant.parse("2026-12-01T12:00:00Z").plus(Duration.ofMinutes(15)));
        String id = "native-20261201T121500Z";

        // When its export request is sent
        var request = send(NativeIncrementalExports.request(
                TABLE_ARN, window, id, VAULT.bucket(), VAULT.exportPrefix("111122223333", "eu-west-1", "orders", id)));

        // Then it conforms to the model and asks for both images of the window's writes
        assertThat(ApiShapes.dynamodb().violations("ExportTableToPointInTime", request.body()))
                .isEmpty();
        assertThat(request.body().path("ExportType").asString()).isEqualTo("INCREMENTAL_EXPORT");
        var spec = request.body().path("IncrementalExportSpecification");
        assertThat(spec.path("ExportFromTime").asLong()).isEqualTo(1_796_126_400L);
        assertThat(spec.path("ExportToTime").asLong()).isEqualTo(1_796_127_300L);
        assertThat(spec.path("ExportViewType").asString()).isEqualTo("NEW_AND_OLD_IMAGES");
        assertThat(request.body().has("ExportTime")).isFalse();
    }

    @Test
    void theClientTokenIsTheSameForTheSamePurposeOnEveryReplicaAndDiffersOtherwise() {
        assertThat(TableExports.clientToken(TABLE_ARN + "/backup/a"))
                .isEqualTo(TableExports.clientToken(TABLE_ARN + "/backup/a"))
                .isNotEqualTo(TableExports.clientToken(TABLE_ARN + "/backup/b"));
    }
}
