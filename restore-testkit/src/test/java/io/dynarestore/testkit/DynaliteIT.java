package io.dynarestore.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The dynalite server the tests and the local stack run: one client that dies in the middle of a
 * request must not take the server down with it (dynalite 4.0.0 alone exits on it).
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
}
