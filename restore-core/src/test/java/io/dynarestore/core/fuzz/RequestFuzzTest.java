package io.dynarestore.core.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import io.dynarestore.contracts.request.Scope;
import io.dynarestore.core.filter.InvalidFilterException;
import io.dynarestore.core.filter.KeySchema;
import io.dynarestore.core.filter.RecordFilter;
import io.dynarestore.core.request.RequestDefaults;
import io.dynarestore.core.request.RequestReader;
import io.dynarestore.testkit.Mutations;
import io.dynarestore.testkit.RandomItems;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Requests as broken clients send them: 6,000 seeded mutations of valid requests (values
 * swapped for nasty ones, members dropped or added, cut, flipped bytes, random bytes). Every one
 * is answered: a valid request, or a rejection with a code and a reason; never an exception.
 * What comes through valid has a filter that compiles or is refused with its field, and that
 * never throws on an item.
 */
class RequestFuzzTest {

    static final String[] VALID = {"""
        {"restoreId": "r-1", "source": {"table": "orders", "backupId": "20261130T101500Z-a1b2c3d4"},
         "destination": {"type": "NEW_TABLE", "tableName": "orders-restored",
           "options": {"tags": {"team": "ops"}, "billing": {"mode": "PROVISIONED", "readCapacityUnits": 5, "writeCapacityUnits": 5}}}}""", """
        {"source": {"table": "orders", "pointInTime": "2026-11-30T10:15:42Z"},
         "scope": {"type": "RECORDS",
                   "keyFilters": [{"partitionKey": {"condition": "EqualTo", "values": ["c#001"]},
                                   "sortKey": {"condition": "BeginsWith", "values": ["2026-11-2"]}}],
                   "attributeFilters": [{"name": "status", "type": "S", "condition": "EqualTo", "values": ["FAILED"]}]},
         "destination": {"type": "IN_PLACE"}}""", """
        {"source": {"table": "orders", "backupId": "b-1", "account": "123456789012", "region": "eu-west-1"},
         "scope": {"type": "RECORDS", "keyFilters": [{"partitionKey": {"condition": "Between", "values": ["a", "m"]}}]},
         "destination": {"type": "FILE", "format": "CSV", "delivery": {"type": "EMAIL", "recipients": ["a@example.com"]}},
         "notify": {"emails": ["me@example.com"], "webhooks": ["https://hooks.example.com/x"]}}""", """
        {"source": {"table": "orders", "snapId": "snap-1"}, "destination": {"type": "EXISTING_TABLE", "tableName": "t2"}}"""};

    static IntStream cases() {
        return IntStream.range(0, 6_000);
    }

    @ParameterizedTest(name = "case {0}")
    @MethodSource("cases")
    void answersEveryMutatedRequestWithAVerdictAndNeverAnException(int seed) {
        // Given a mutation of a valid request
        var mutations = new Mutations(seed);
        String base = VALID[seed % VALID.length];
        byte[] body = seed % 10 == 9
                ? mutations.bytes(base.getBytes(StandardCharsets.UTF_8))
                : mutations.json(base).getBytes(StandardCharsets.UTF_8);

        // When it is read as restore-api and the planner read it
        RequestReader.Result result = RequestReader.read(body, "fallback-" + seed);

        // Then it is a request or a rejection that says what is wrong
        if (result instanceof RequestReader.Invalid invalid) {
            assertThat(invalid.code()).isNotNull();
            assertThat(invalid.reason()).isNotBlank();
            assertThat(invalid.restoreId()).isNotBlank();
            return;
        }
        var request = RequestDefaults.apply(
                ((RequestReader.Valid) result).request(), "000000000000", "us-east-1", "r-" + seed, Instant.EPOCH);
        assertThat(request.restoreId()).isNotBlank();
        // and a filter of a valid request compiles, or is refused naming its field, and never throws on items
        if (request.scope() instanceof Scope.Records records) {
            try {
                var filter = RecordFilter.compile(records, KeySchema.of(List.of("pk", "sk"), List.of("S", "N")));
                new RandomItems(seed, RandomItems.Shape.simple()).items(20).forEach(filter::matches);
            } catch (InvalidFilterException e) {
                assertThat(e.errors()).isNotEmpty();
            }
        }
    }
}
