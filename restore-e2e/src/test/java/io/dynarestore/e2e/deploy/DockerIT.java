package io.dynarestore.e2e.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dynarestore.core.vault.BackupWriter;
import io.dynarestore.core.vault.VaultLayout;
import io.dynarestore.testkit.Dynalite;
import io.dynarestore.testkit.ItemDigests;
import io.dynarestore.testkit.KafkaBroker;
import io.dynarestore.testkit.LocalApi;
import io.dynarestore.testkit.RandomItems;
import io.dynarestore.testkit.TopicRecorder;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * What needs a Docker engine: the broker in a container (the switch every integration test takes
 * with {@code -Ddynarestore.kafka=testcontainers}), and the whole compose stack restoring a
 * backup. Both skip, saying why, where no engine runs; the compose test also waits to be asked
 * ({@code -Ddynarestore.compose=true}, after {@code ./mvnw -Pimages package -DskipTests}).
 */
class DockerIT {

    static boolean dockerRuns() {
        try {
            Process p = new ProcessBuilder("docker", "info")
                    .redirectErrorStream(true)
                    .start();
            p.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
            return p.waitFor(20, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (Exception e) {
            return false;
        }
    }

    @Test
    void runsTheBrokerInDockerWhenAsked() throws Exception {
        Assumptions.assumeTrue(
                dockerRuns(),
                "no Docker engine answers here, so the Testcontainers broker "
                        + "(apache/kafka) is not tried; on a machine with Docker run ./mvnw verify -Ddynarestore.kafka=testcontainers");
        String before = System.getProperty("dynarestore.kafka");
        System.setProperty("dynarestore.kafka", "testcontainers");
        try (var broker = KafkaBroker.start(Map.of("probe", 1))) {
            try (var producer = new KafkaProducer<>(
                    Map.<String, Object>of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
                    new StringSerializer(),
                    new StringSerializer())) {
                producer.send(new ProducerRecord<>("probe", "k", "v")).get(30, TimeUnit.SECONDS);
            }
            assertThat(TopicRecorder.readToEnd(broker.bootstrapServers(), "probe", Duration.ofSeconds(30)))
                    .singleElement()
                    .satisfies(r -> assertThat(r.raw()).isEqualTo("v"));
        } finally {
            if (before == null) {
                System.clearProperty("dynarestore.kafka");
            } else {
                System.setProperty("dynarestore.kafka", before);
            }
        }
    }

    @Test
    void restoresABackupThroughTheComposeStack() throws Exception {
        Assumptions.assumeTrue(
                Boolean.getBoolean("dynarestore.compose"),
                "the compose stack test runs when asked: "
                        + "./mvnw -Pimages package -DskipTests, then ./mvnw -pl restore-e2e verify -Dit.test=DockerIT "
                        + "-Ddynarestore.compose=true (needs Docker with Compose v2)");
        Assumptions.assumeTrue(dockerRuns(), "no Docker engine answers here");
        Path root = Manifests.root();
        run(root, "docker", "compose", "up", "-d", "--wait");
        try {
            // Given a table in DynamoDB Local and a backup of it in the vault (S3Proxy)
            var dynamo = Dynalite.client(URI.create("http://localhost:8000"));
            dynamo.createTable(b -> b.tableName("compose-src")
                    .billingMode(BillingMode.PAY_PER_REQUEST)
                    .attributeDefinitions(
                            AttributeDefinition.builder()
                                    .attributeName("pk")
                                    .attributeType(ScalarAttributeType.S)
                                    .build(),
                            AttributeDefinition.builder()
                                    .attributeName("sk")
                                    .attributeType(ScalarAttributeType.N)
                                    .build())
                    .keySchema(
                            KeySchemaElement.builder()
                                    .attributeName("pk")
                                    .keyType(KeyType.HASH)
                                    .build(),
                            KeySchemaElement.builder()
                                    .attributeName("sk")
                                    .keyType(KeyType.RANGE)
                                    .build()));
            var table = dynamo.describeTable(b -> b.tableName("compose-src")).table();
            var items = new RandomItems(77, RandomItems.Shape.simple()).items(500);
            var s3 = S3Client.builder()
                    .endpointOverride(URI.create("http://localhost:9000"))
                    .region(Region.US_EAST_1)
                    .forcePathStyle(true)
                    .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
                    .build();
            var writer = new BackupWriter(
                    s3, new VaultLayout("vault", ""), "000000000000", "us-east-1", "compose-src", "b-compose", 100);
            try (var part = writer.openPart()) {
                items.forEach(part::write);
            }
            writer.finish(
                    table,
                    List.of(),
                    null,
                    null,
                    Instant.now().minusSeconds(60),
                    Instant.now().plusSeconds(86400));

            // When it is restored through restore-api
            var http = HttpClient.newHttpClient();
            var post = http.send(
                    HttpRequest.newBuilder(URI.create("http://localhost:8080/restores"))
                            .header(LocalApi.HEADER, LocalApi.KEY)
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString("""
                            {"restoreId": "compose-1", "source": {"table": "compose-src", "backupId": "b-compose"},
                             "destination": {"type": "NEW_TABLE", "tableName": "compose-dst"}}"""))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(post.statusCode()).as(post.body()).isEqualTo(202);

            // Then it completes, and the new table holds the backup's items
            await().atMost(Duration.ofMinutes(3))
                    .until(() -> http.send(
                                    HttpRequest.newBuilder(URI.create("http://localhost:8080/restores/compose-1"))
                                            .header(LocalApi.HEADER, LocalApi.KEY)
                                            .build(),
                                    HttpResponse.BodyHandlers.ofString())
                            .body()
                            .contains("\"COMPLETED\""));
            assertThat(ItemDigests.ofTable(dynamo, "compose-dst", List.of("pk", "sk")))
                    .isEqualTo(ItemDigests.of(items, List.of("pk", "sk")));
        } finally {
            run(root, "docker", "compose", "down", "-v");
        }
    }

    static void run(Path dir, String... command) throws Exception {
        Process p = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(10, TimeUnit.MINUTES)).isTrue();
        assertThat(p.exitValue()).as(String.join(" ", command) + "\n" + out).isZero();
    }
}
