package io.dynarestore.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

class WriteRecorderTest {

    static final JsonMapper JSON = JsonMapper.builder().build();
    static final ObjectNode KEY = JSON.createObjectNode().put("pk", "p10");

    @Test
    void readsAnItemAgainWhenItsConnectionFailsSoThatAWriteTheDatabaseMadeIsRecorded() {
        // Given a database whose first two answers are lost to closed connections (as after SIGCONT)
        var calls = new AtomicInteger();
        JsonNode item = JSON.createObjectNode().put("v", 6);
        WriteRecorder.Items dynamo = (table, key) -> {
            if (calls.incrementAndGet() <= 2) {
                throw new UncheckedIOException(new IOException("HTTP/1.1 header parser received no bytes"));
            }
            return item;
        };

        // When the recorder reads the item
        JsonNode read = WriteRecorder.read(dynamo, "chaos-protected", KEY);

        // Then it has the item, on the third call
        assertThat(read).isEqualTo(item);
        assertThat(calls).hasValue(3);
    }

    @Test
    void givesUpAfterABoundedNumberOfFailedReads() {
        // Given a database that never answers
        var calls = new AtomicInteger();
        WriteRecorder.Items dynamo = (table, key) -> {
            calls.incrementAndGet();
            throw new UncheckedIOException(new IOException("connection refused"));
        };

        // When the recorder reads, then it fails after READ_ATTEMPTS calls
        assertThatThrownBy(() -> WriteRecorder.read(dynamo, "chaos-protected", KEY))
                .isInstanceOf(UncheckedIOException.class);
        assertThat(calls).hasValue(WriteRecorder.READ_ATTEMPTS);
    }
}
