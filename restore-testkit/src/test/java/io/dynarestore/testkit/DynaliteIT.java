package io.dynarestore.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;

/**
 * The dynalite server the tests and the local stack run: one client that dies in the middle of a
 * request must not take the server down with it (dynalite 4.0.0 alone exits on it), and conditions
 * compare lists and maps as DynamoDB does (dynalite 4.0.0 alone never finds them equal).
 */
class DynaliteIT {

    @Test
    void keepsServingAfterAClientDiesInTheMiddleOfSendingARequest() throws Exception {
        // Given a running dynalite
        try (var dynalite = Dynalite.start()) {
            dynalite.client()
                    .createTable(b -> b.tableName("guarded")
                            .keySchema(k -> k.attributeName("pk").keyType("HASH"))
                            .attributeDefinitions(a -> a.attributeName("pk").attributeType("S"))
                            .billingMode("PAY_PER_REQUEST"));

            // When a client sends half a request and its connection is reset, as when its process is killed
            try (var socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", dynalite.port()));
                OutputStream out = socket.getOutputStream();
                out.write(("POST / HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-amz-json-1.0\r\n"
                                + "X-Amz-Target: DynamoDB_20120810.PutItem\r\nContent-Length: 1000\r\n\r\n{\"TableName\":")
                        .getBytes(StandardCharsets.US_ASCII));
                out.flush();
                Thread.sleep(200);
                socket.setSoLinger(true, 0);
            }
            Thread.sleep(500);

            // Then the server still runs and answers the next request
            assertThat(dynalite.isRunning()).as("dynalite still running").isTrue();
            assertThat(dynalite.client().listTables().tableNames()).containsExactly("guarded");
        }
    }

    static Stream<Arguments> comparisons() {
        var s = AttributeValue.fromS("a");
        var n = AttributeValue.fromN("1");
        var t = AttributeValue.fromBool(true);
        var nul = AttributeValue.fromNul(true);
        return Stream.of(
                Arguments.of(AttributeValue.fromL(List.of(s, n)), AttributeValue.fromL(List.of(s, n)), true),
                Arguments.of(AttributeValue.fromL(List.of(s, n)), AttributeValue.fromL(List.of(n, s)), false),
                Arguments.of(
                        AttributeValue.fromM(Map.of("x", AttributeValue.fromL(List.of(t)), "y", nul)),
                        AttributeValue.fromM(Map.of("y", nul, "x", AttributeValue.fromL(List.of(t)))),
                        true),
                Arguments.of(
                        AttributeValue.fromM(Map.of("x", AttributeValue.fromS("1"))),
                        AttributeValue.fromM(Map.of("x", AttributeValue.fromN("1"))),
                        false),
                Arguments.of(AttributeValue.fromM(Map.of("x", s)), AttributeValue.fromM(Map.of("x", s, "z", s)), false),
                Arguments.of(AttributeValue.fromSs(List.of("a", "b")), AttributeValue.fromSs(List.of("b", "a")), true),
                Arguments.of(AttributeValue.fromL(List.of()), AttributeValue.fromL(List.of()), true));
    }

    @ParameterizedTest
    @MethodSource("comparisons")
    void comparesListsMapsAndSetsInConditionsAsDynamoDbDoes(
            AttributeValue stored, AttributeValue compared, boolean equal) {
        // Given an item whose attribute v holds a list, a map or a set
        try (var dynalite = Dynalite.start()) {
            dynalite.client()
                    .createTable(b -> b.tableName("conditions")
                            .keySchema(k -> k.attributeName("pk").keyType("HASH"))
                            .attributeDefinitions(a -> a.attributeName("pk").attributeType("S"))
                            .billingMode("PAY_PER_REQUEST"));
            var item = Map.of("pk", AttributeValue.fromS("k"), "v", stored);
            dynalite.client().putItem(b -> b.tableName("conditions").item(item));

            // When it is written again on the condition that v equals another value
            boolean written;
            try {
                dynalite.client()
                        .putItem(b -> b.tableName("conditions")
                                .item(item)
                                .conditionExpression("#v = :v")
                                .expressionAttributeNames(Map.of("#v", "v"))
                                .expressionAttributeValues(Map.of(":v", compared)));
                written = true;
            } catch (ConditionalCheckFailedException e) {
                written = false;
            }

            // Then the condition holds exactly when DynamoDB's EQ would: lists in order, maps by name, sets in any
            // order
            assertThat(written).isEqualTo(equal);
        }
    }
}
