package io.dynarestore.contracts;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RestoreIdsTest {

    @ParameterizedTest
    @ValueSource(strings = {"6f1c2a4e-0d7b-4c55-9a8e-2f0d9b1e7c31", "r1", "a.b_c-d"})
    void takesIdsOfTheSchemasPattern(String id) {
        assertThat(RestoreIds.valid(id)).isTrue();
        assertThat(
                        Schemas.validate(
                                "CancelRequested",
                                Json.mapper()
                                        .readTree(
                                                "{\"eventId\":\"e\",\"restoreId\":\"" + id
                                                        + "\",\"type\":\"CancelRequested\",\"schemaVersion\":1,\"occurredAt\":\"2026-11-30T10:15:42Z\"}")))
                .isEmpty();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "../x",
                ".hidden",
                "a/b",
                "a\r\nb",
                "a b",
                "-x",
                "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
                "ñ"
            })
    void refusesWhatCouldEscapeAnS3PrefixOrALogLine(String id) {
        assertThat(RestoreIds.valid(id)).isFalse();
    }
}
