package io.dynarestore.core.request;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.request.Scope;
import io.dynarestore.contracts.status.RejectionCode;
import io.dynarestore.contracts.status.RestoreRejected.FieldError;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RequestReaderTest {

    static RequestReader.Result read(String body) {
        return RequestReader.read(body.getBytes(StandardCharsets.UTF_8), "fallback-id");
    }

    @Test
    void readsAMinimalRequestAndFillsItsDefaults() {
        // Given the smallest valid request: a backup of a table, into a new table
        var result = read(
                "{\"source\":{\"table\":\"orders\",\"backupId\":\"b1\"},\"destination\":{\"type\":\"NEW_TABLE\"}}");

        // When it is read and defaulted
        assertThat(result).isInstanceOf(RequestReader.Valid.class);
        var request = RequestDefaults.apply(
                ((RequestReader.Valid) result).request(),
                "000000000000",
                "us-east-1",
                "r-1",
                Instant.parse("2026-11-30T10:15:42Z"));

        // Then every default is explicit
        assertThat(request.restoreId()).isEqualTo("r-1");
        assertThat(request.type()).isEqualTo("RestoreRequested");
        assertThat(request.schemaVersion()).isEqualTo(1);
        assertThat(request.source().account()).isEqualTo("000000000000");
        assertThat(request.source().region()).isEqualTo("us-east-1");
        assertThat(request.scope()).isInstanceOf(Scope.Full.class);
        var destination = (Destination.NewTable) request.destination();
        assertThat(destination.tableName()).isEqualTo("Restored-orders-20261130101542");
        assertThat(destination.account()).isEqualTo("000000000000");
        assertThat(destination.region()).isEqualTo("us-east-1");
    }

    @Test
    void keepsTheClientsRestoreIdAndTime() {
        var result = (RequestReader.Valid) read("{\"restoreId\":\"mine-1\",\"occurredAt\":\"2026-01-02T03:04:05Z\","
                + "\"source\":{\"table\":\"orders\",\"backupId\":\"b1\"},\"destination\":{\"type\":\"NEW_TABLE\"}}");
        var request = RequestDefaults.apply(result.request(), "000000000000", "us-east-1", "other", Instant.now());
        assertThat(request.restoreId()).isEqualTo("mine-1");
        assertThat(((Destination.NewTable) request.destination()).tableName())
                .isEqualTo("Restored-orders-20260102030405");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "not JSON           | {source:                                                                     | INVALID_JSON    | ",
                "a JSON array       | [1,2]                                                                        | INVALID_JSON    | ",
                "empty              | ''                                                                           | INVALID_JSON    | ",
                "no destination     | {\"source\":{\"table\":\"orders\",\"backupId\":\"b1\"}}                      | INVALID_REQUEST | /destination",
                "two source kinds   | {\"source\":{\"table\":\"orders\",\"backupId\":\"b1\",\"snapId\":\"s\"},\"destination\":{\"type\":\"NEW_TABLE\"}} | INVALID_REQUEST | /source",
                "no source kind     | {\"source\":{\"table\":\"orders\"},\"destination\":{\"type\":\"NEW_TABLE\"}} | INVALID_REQUEST | /source",
                "traversal backupId | {\"source\":{\"table\":\"orders\",\"backupId\":\"../x\"},\"destination\":{\"type\":\"NEW_TABLE\"}} | INVALID_REQUEST | /source/backupId",
            })
    void rejectsWithACodeAReasonAndTheFieldAtFault(String name, String body, RejectionCode code, String field) {
        var result = read(body.equals("''") ? "" : body);
        assertThat(result).isInstanceOf(RequestReader.Invalid.class);
        var invalid = (RequestReader.Invalid) result;
        assertThat(invalid.code()).isEqualTo(code);
        assertThat(invalid.reason()).isNotBlank();
        assertThat(invalid.restoreId()).isEqualTo("fallback-id");
        if (field != null) {
            assertThat(invalid.errors()).extracting(FieldError::field).contains(field);
            assertThat(invalid.reason()).contains(field);
        }
    }

    @Test
    void reportsARejectionUnderTheRequestsOwnRestoreId() {
        var invalid = (RequestReader.Invalid) read("{\"restoreId\":\"mine-2\",\"source\":{}}");
        assertThat(invalid.restoreId()).isEqualTo("mine-2");
    }

    @Test
    void shortensTheDefaultNameOfALongTableToTheLimit() {
        String name = RequestDefaults.defaultTableName("t".repeat(255), Instant.EPOCH);
        assertThat(name).hasSize(255).startsWith("Restored-t").endsWith("-19700101000000");
    }
}
