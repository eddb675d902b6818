package io.dynarestore.contracts;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.contracts.request.Destination;
import io.dynarestore.contracts.request.RestoreRequested;
import io.dynarestore.contracts.request.Scope;
import io.dynarestore.contracts.status.RestoreRejected.FieldError;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RestoreRequestedSchemaTest {

    static final String DESIGN_EXAMPLE = """
            {
              "restoreId": "6f1c2a4e-0d7b-4c55-9a8e-2f0d9b1e7c31",
              "source": { "account": "000000000000", "region": "us-east-1", "table": "orders",
                          "backupId": "20261130T101500Z-a1b2c3d4" },
              "scope": { "type": "RECORDS",
                         "keyFilters": [ { "partitionKey": { "condition": "EqualTo", "values": ["c#1"] },
                                           "sortKey": { "condition": "BeginsWith", "values": ["2026-"] } } ],
                         "attributeFilters": [ { "name": "status", "type": "S", "condition": "EqualTo", "values": ["FAILED"] } ] },
              "destination": { "type": "NEW_TABLE", "account": "000000000000", "region": "us-east-1",
                               "tableName": "orders-restored", "options": { "tags": { "team": "payments" } } },
              "notify": { "emails": ["ops@example.com"], "webhooks": ["https://hooks.example.com/restores"] }
            }
            """;

    @Test
    void acceptsTheRequestOfTheDesignAndReadsItIntoRecords() {
        // Given the request JSON of DESIGN.md, as a non-Java client would write it
        var json = Json.mapper().readTree(DESIGN_EXAMPLE);

        // When it is validated and read
        List<FieldError> problems = Schemas.validate("RestoreRequested", json);
        RestoreRequested request = Json.mapper().treeToValue(json, RestoreRequested.class);

        // Then it is valid and every part is typed
        assertThat(problems).isEmpty();
        assertThat(request.scope()).isInstanceOf(Scope.Records.class);
        assertThat(((Scope.Records) request.scope())
                        .keyFilters()
                        .get(0)
                        .sortKey()
                        .condition())
                .isEqualTo("BeginsWith");
        assertThat(request.destination()).isInstanceOf(Destination.NewTable.class);
        assertThat(((Destination.NewTable) request.destination()).options().tags())
                .containsEntry("team", "payments");
        assertThat(request.notification().webhooks()).containsExactly("https://hooks.example.com/restores");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "no destination          | {\"source\":{\"table\":\"orders\",\"backupId\":\"b1\"}}                                                       | /destination",
                "no source table         | {\"source\":{\"backupId\":\"b1\"},\"destination\":{\"type\":\"NEW_TABLE\"}}                                  | /source/table",
                "misspelt field          | {\"source\":{\"table\":\"orders\",\"backupId\":\"b1\"},\"destination\":{\"type\":\"NEW_TABLE\",\"tableNmae\":\"x\"}} | /destination",
                "bad account             | {\"source\":{\"account\":\"12\",\"table\":\"orders\",\"backupId\":\"b1\"},\"destination\":{\"type\":\"NEW_TABLE\"}} | /source/account",
                "bad table name          | {\"source\":{\"table\":\"o\",\"backupId\":\"b1\"},\"destination\":{\"type\":\"NEW_TABLE\"}}                  | /source/table",
                "unknown destination     | {\"source\":{\"table\":\"orders\",\"backupId\":\"b1\"},\"destination\":{\"type\":\"S3\"}}                    | /destination/type",
                "existing without name   | {\"source\":{\"table\":\"orders\",\"backupId\":\"b1\"},\"destination\":{\"type\":\"EXISTING_TABLE\"}}        | /destination/tableName",
                "records without filters | {\"source\":{\"table\":\"orders\",\"backupId\":\"b1\"},\"scope\":{\"type\":\"RECORDS\"},\"destination\":{\"type\":\"NEW_TABLE\"}} | /scope/keyFilters",
                "unknown condition       | {\"source\":{\"table\":\"orders\",\"backupId\":\"b1\"},\"scope\":{\"type\":\"RECORDS\",\"keyFilters\":[{\"partitionKey\":{\"condition\":\"Like\"}}]},\"destination\":{\"type\":\"NEW_TABLE\"}} | /scope/keyFilters/0/partitionKey/condition",
                "email without recipient | {\"source\":{\"table\":\"orders\",\"backupId\":\"b1\"},\"destination\":{\"type\":\"FILE\",\"format\":\"CSV\",\"delivery\":{\"type\":\"EMAIL\"}}} | /destination/delivery/recipients",
                "bad restore id          | {\"restoreId\":\"../etc\",\"source\":{\"table\":\"orders\",\"backupId\":\"b1\"},\"destination\":{\"type\":\"NEW_TABLE\"}} | /restoreId",
            })
    void rejectsABadRequestNamingTheFieldAtFault(String caseName, String body, String field) {
        // Given a request with one fault
        var json = Json.mapper().readTree(body);

        // When it is validated
        List<FieldError> problems = Schemas.validate("RestoreRequested", json);

        // Then a problem names the field
        assertThat(problems).extracting(FieldError::field).contains(field);
        assertThat(problems).allSatisfy(p -> assertThat(p.message()).isNotBlank());
    }
}
