package io.dynarestore.core.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.CRC32;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.exception.Crc32MismatchException;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * The interceptor inside a real SDK Streams client, against an HTTP server that answers GetRecords
 * as the service does, with its {@code x-amz-crc32}: the SDK reads the records without keys and
 * images, the bodies hold them, and an answer whose bytes do not match the sent CRC is refused (after retries).
 */
class StreamRecordBodiesClientTest {

    private HttpServer server;
    private final AtomicInteger calls = new AtomicInteger();

    private DynamoDbStreamsClient clientAnswering(String answer, boolean crcRight) throws Exception {
        return clientAnswering(answer, crcRight, true);
    }

    private DynamoDbStreamsClient clientAnswering(String answer, boolean crcRight, boolean intercepted)
            throws Exception {
        byte[] bytes = answer.getBytes(StandardCharsets.UTF_8);
        var crc = new CRC32();
        crc.update(bytes);
        long sent = crcRight ? crc.getValue() : crc.getValue() ^ 1;
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            calls.incrementAndGet();
            exchange.getRequestBody().readAllBytes();
            exchange.getResponseHeaders().add("Content-Type", "application/x-amz-json-1.0");
            exchange.getResponseHeaders().add("x-amz-crc32", Long.toString(sent));
            exchange.sendResponseHeaders(200, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
        return DynamoDbStreamsClient.builder()
                .region(Region.US_EAST_1)
                .endpointOverride(
                        URI.create("http://127.0.0.1:" + server.getAddress().getPort()))
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("a", "b")))
                .overrideConfiguration(c -> {
                    if (intercepted) {
                        c.addExecutionInterceptor(StreamRecordBodies.INTERCEPTOR);
                    }
                })
                .build();
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void theSdkReadsOnlyTheNextIteratorWhileTheBodiesHoldTheRecordsAndTheSentCrcIsChecked() throws Exception {
        // Given a GetRecords answer with a right x-amz-crc32
        try (var client = clientAnswering(StreamRecordBodiesTest.ANSWER, true)) {
            // When the SDK reads it
            var page = client.getRecords(b -> b.shardIterator("it-1"));
            var bodies = StreamRecordBodies.take().orElseThrow();

            // Then it has the next iterator and no record to decode, and the bodies hold the records
            assertThat(page.records()).isEmpty();
            assertThat(page.nextShardIterator()).isEqualTo("it-2");
            assertThat(bodies)
                    .extracting(StreamRecordBodies.Body::second)
                    .containsExactly(1_764_583_200L, 1_764_583_201L);
            assertThat(bodies)
                    .extracting(StreamRecordBodies.Body::sequenceNumber)
                    .containsExactly("100000000000000000001", "100000000000000000002");
            assertThat(new String(bodies.get(1).members(), StandardCharsets.UTF_8))
                    .contains("\"OldImage\"")
                    .startsWith("\"Keys\":{\"pk\":{\"S\":\"b\"}");
        }
    }

    @Test
    void anAnswerItCannotCutGoesToTheSdkWholeAndLeavesNothingToTake() throws Exception {
        // Given an answer whose record has no Keys
        String answer = "{\"NextShardIterator\":\"it-2\",\"Records\":[{\"dynamodb\":{\"SequenceNumber\":\"7\","
                + "\"ApproximateCreationDateTime\":1.7645832E9,\"SizeBytes\":3}}]}";
        try (var client = clientAnswering(answer, true)) {
            // When the SDK reads it
            var page = client.getRecords(b -> b.shardIterator("it-1"));

            // Then the SDK has its record and there are no bodies to take
            assertThat(page.records())
                    .singleElement()
                    .satisfies(r -> assertThat(r.dynamodb().sequenceNumber()).isEqualTo("7"));
            assertThat(StreamRecordBodies.take()).isEmpty();
        }
    }

    @Test
    void anAnswerWhoseBytesDoNotMatchTheSentCrcIsRefusedAsTheSdkRefusesOne() throws Exception {
        // Given answers whose x-amz-crc32 is wrong, read once by a plain SDK client
        Class<? extends Throwable> plain;
        int plainCalls;
        try (var client = clientAnswering(StreamRecordBodiesTest.ANSWER, false, false)) {
            var thrown =
                    org.assertj.core.api.Assertions.catchThrowable(() -> client.getRecords(b -> b.shardIterator("it")));
            assertThat(thrown).as("the plain SDK checks the CRC").isNotNull();
            plain = thrown.getClass();
            plainCalls = calls.getAndSet(0);
        }
        server.stop(0);

        // When a client with the interceptor reads one, Then it fails the same way, as often asked
        try (var client = clientAnswering(StreamRecordBodiesTest.ANSWER, false)) {
            assertThatThrownBy(() -> client.getRecords(b -> b.shardIterator("it-1")))
                    .isInstanceOf(Crc32MismatchException.class)
                    .isInstanceOf(plain);
            assertThat(calls.get()).isEqualTo(plainCalls);
        }
    }
}
